#include "check/decide.h"

#include <algorithm>

namespace hpclab {

namespace {

bool is_sanitizer(Verdict v) { return verdict_info(v).kind == VerdictClass::sanitizer; }

}  // namespace

TaskVerdict decide(const TaskEvidence& evidence)
{
    TaskVerdict out;
    out.task = evidence.task;
    std::vector<const Finding*> failures;
    const Finding* not_run = nullptr;  // the first: it says why nothing ran
    for (const auto& f : evidence.findings) {
        if (f.kind == Verdict::not_run && !not_run) not_run = &f;
        else if (is_failure(f.kind)) failures.push_back(&f);
    }
    if (failures.empty()) {
        out.verdict = not_run ? Verdict::not_run : Verdict::pass;
        if (not_run) out.reason = *not_run;
        return out;
    }
    // Stable: among findings of the same kind, the first one gathered wins
    // (the smallest size, the first call).
    std::stable_sort(failures.begin(), failures.end(),
                     [](const Finding* a, const Finding* b) { return precedence(a->kind) < precedence(b->kind); });
    const Finding* chosen = failures.front();
    if (verdict_info(chosen->kind).traits.sanitizer_explains) {
        const auto cause = std::find_if(failures.begin(), failures.end(),
                                        [](const Finding* f) { return is_sanitizer(f->kind); });
        if (cause != failures.end()) chosen = *cause;
    }
    out.verdict = chosen->kind;
    out.reason = *chosen;
    // The other kinds of failure, once each (the first of each kind).
    for (const Finding* f : failures) {
        if (f == chosen || f->kind == chosen->kind) continue;
        if (std::any_of(out.also.begin(), out.also.end(), [&](const Finding& a) { return a.kind == f->kind; })) continue;
        out.also.push_back(*f);
    }
    return out;
}

Verdict worst(const std::vector<TaskVerdict>& tasks)
{
    Verdict w = Verdict::pass;
    bool any_not_run = false;
    for (const auto& t : tasks) {
        if (t.verdict == Verdict::not_run) any_not_run = true;
        else if (precedence(t.verdict) < precedence(w)) w = t.verdict;
    }
    return w == Verdict::pass && any_not_run ? Verdict::not_run : w;
}

}  // namespace hpclab
