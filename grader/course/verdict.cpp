#include "course/verdict.h"

#include <algorithm>
#include <array>

namespace hpclab {

namespace {

struct Names {
    Verdict v;
    std::string_view name, title;
};

constexpr std::array kNames = {
    Names {Verdict::grader_error, "grader_error", "grader error"},
    Names {Verdict::compile_error, "compile_error", "compile error"},
    Names {Verdict::time_limit, "time_limit", "time limit"},
    Names {Verdict::crash, "crash", "crash"},
    Names {Verdict::cuda_error, "cuda_error", "CUDA error"},
    Names {Verdict::gpu_fault, "gpu_fault", "GPU fault"},
    Names {Verdict::output_limit, "output_limit", "too much output"},
    Names {Verdict::no_output, "no_output", "no output written"},
    Names {Verdict::input_modified, "input_modified", "input modified"},
    Names {Verdict::out_of_bounds, "out_of_bounds", "write out of bounds"},
    Names {Verdict::wrong_answer, "wrong_answer", "wrong answer"},
    Names {Verdict::not_on_gpu, "not_on_gpu", "not computed on the GPU"},
    Names {Verdict::wrong_launch, "wrong_launch", "wrong launch shape"},
    Names {Verdict::no_shared_memory, "no_shared_memory", "shared memory not used"},
    Names {Verdict::memory_leak, "memory_leak", "device memory not freed"},
    Names {Verdict::memcheck, "memcheck", "invalid memory access (memcheck)"},
    Names {Verdict::race, "race", "data race (racecheck)"},
    Names {Verdict::too_slow, "too_slow", "too slow"},
    Names {Verdict::inconclusive, "inconclusive", "inconclusive: rerun"},
    Names {Verdict::suspicious, "suspicious", "suspiciously fast"},
    Names {Verdict::pass, "pass", "pass"},
    Names {Verdict::not_run, "not_run", "not run (no GPU)"},
};

const Names& names_of(Verdict v)
{
    for (const auto& n : kNames)
        if (n.v == v) return n;
    return kNames.back();
}

int rank(Verdict v) { return static_cast<int>(v); }

bool is_sanitizer(Verdict v) { return v == Verdict::memcheck || v == Verdict::race; }

// Findings a sanitizer report explains: the symptom, where it names the cause.
bool explained_by_sanitizer(Verdict v)
{
    return v == Verdict::wrong_answer || v == Verdict::out_of_bounds || v == Verdict::no_output;
}

}  // namespace

std::string_view verdict_name(Verdict v) { return names_of(v).name; }
std::string_view verdict_title(Verdict v) { return names_of(v).title; }

std::optional<Verdict> verdict_from_name(std::string_view name)
{
    for (const auto& n : kNames)
        if (n.name == name) return n.v;
    return std::nullopt;
}

bool is_failure(Verdict v) { return v != Verdict::pass && v != Verdict::not_run; }

TaskVerdict decide(const TaskEvidence& evidence)
{
    TaskVerdict out;
    out.task = evidence.task;
    std::vector<const Finding*> failures;
    bool not_run = false;
    for (const auto& f : evidence.findings) {
        if (f.kind == Verdict::not_run) not_run = true;
        else if (is_failure(f.kind)) failures.push_back(&f);
    }
    if (failures.empty()) {
        out.verdict = not_run ? Verdict::not_run : Verdict::pass;
        return out;
    }
    // Stable: among findings of the same kind, the first one gathered wins
    // (the smallest size, the first call).
    std::stable_sort(failures.begin(), failures.end(),
                     [](const Finding* a, const Finding* b) { return rank(a->kind) < rank(b->kind); });
    const Finding* chosen = failures.front();
    if (explained_by_sanitizer(chosen->kind)) {
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
        else if (rank(t.verdict) < rank(w)) w = t.verdict;
    }
    return w == Verdict::pass && any_not_run ? Verdict::not_run : w;
}

}  // namespace hpclab
