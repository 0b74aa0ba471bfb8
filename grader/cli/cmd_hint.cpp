// hpclab hint: the lab's hints one at a time, gentle first, remembered in
// the progress so that the next call gives the next one.
#include "commands.h"
#include "student/progress.h"
#include "course/verdict.h"
#include "util/escape.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab::cli {

namespace {

constexpr std::size_t kHintWidth = 100;
constexpr int kEvidenceLines = 4;  // of a finding's message: the sanitizer's report and its site

void print_hint(const LabInfo& lab, std::size_t k)  // k counts from 1
{
    fmt::print("Hint {} of {} for {}:\n{}", k, lab.hints.size(), lab.id, wrap(lab.hints[k - 1], kHintWidth, "  "));
}

// Where to go once the hints are used up: the walkthrough, then the answer.
void print_no_more(const Context& ctx, const LabInfo& lab)
{
    std::error_code ec;
    if (!std::filesystem::exists(lab.solution_source(), ec)) {  // the student kit
        fmt::print("\nThere are no more hints for {}. The walkthrough {} goes through every step.\n", lab.id,
                   relative_to_root(ctx, lab.doc));
        return;
    }
    fmt::print("\nThere are no more hints for {}. The walkthrough {} goes through every step;\n"
               "'hpclab run {} --solution' runs the reference solution ({}).\n",
               lab.id, relative_to_root(ctx, lab.doc), lab.id, relative_to_root(ctx, lab.solution_source()));
}

// Hints are worth showing even where they cannot be recorded (a read-only
// course folder): say so instead of failing.
void save_or_warn(const Progress& p)
{
    try {
        p.save();
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: could not record it in the progress: {}\n", e.what());
    }
}

int shown_so_far(const LabInfo& lab, const Progress& p)
{
    const LabProgress* l = p.find(lab.id);
    // A progress written for a lab that had more hints then: never past the end.
    return l ? std::min<int>(l->hints_shown, static_cast<int>(lab.hints.size())) : 0;
}

int print_all_shown(const Context& ctx, const LabInfo& lab)
{
    const Progress p = Progress::load(ctx.catalog().root());
    const int shown = shown_so_far(lab, p);
    if (shown == 0) {
        fmt::print("No hints shown yet for {}: 'hpclab hint {}' shows the first of {}.\n", lab.id, lab.id,
                   lab.hints.size());
        return kPass;
    }
    for (int k = 1; k <= shown; ++k) {
        if (k > 1) fmt::print("\n");
        print_hint(lab, static_cast<std::size_t>(k));
    }
    if (static_cast<std::size_t>(shown) < lab.hints.size())
        fmt::print("\n{} more: 'hpclab hint {}' shows the next.\n", lab.hints.size() - shown, lab.id);
    return kPass;
}

int start_over(const Context& ctx, const LabInfo& lab)
{
    Progress p = Progress::load(ctx.catalog().root());
    p.lab(lab.id).hints_shown = 0;
    save_or_warn(p);
    fmt::print("The hints of {} start over: the next one is hint 1 of {}.\n", lab.id, lab.hints.size());
    return kPass;
}

// The finding that decided the last check, with its likely bug: what the
// student needs first (the ladder's hints are the same for every mistake).
void print_evidence_hint(const LabInfo& lab, const LabProgress& l, std::size_t next_ladder_hint)
{
    const CheckEvidence& e = l.last_evidence;
    const auto v = verdict_from_name(e.verdict);
    fmt::print("From your last check of {} ({}): task {}, {}{}:\n", lab.id, for_terminal(l.last_check), for_terminal(e.task),
               v ? std::string(verdict_title(*v)) : for_terminal(e.verdict),
               e.where.empty() ? "" : " at " + for_terminal(e.where));
    std::string_view message = e.message;
    for (int k = 0; k < kEvidenceLines && !message.empty(); ++k) {
        const auto end = message.find('\n');
        fmt::print("  {}\n", for_terminal(message.substr(0, end)));
        message = end == std::string_view::npos ? std::string_view {} : message.substr(end + 1);
    }
    if (!e.hint.empty()) fmt::print("{}", wrap(for_terminal(e.hint), kHintWidth, ""));
    if (next_ladder_hint <= lab.hints.size())
        fmt::print("\n'hpclab hint {}' again gives hint {} of {}.\n", lab.id, next_ladder_hint, lab.hints.size());
}

}  // namespace

void show_next_hint(const Context& ctx, const LabInfo& lab)
{
    Progress p = Progress::load(ctx.catalog().root());
    const std::size_t total = lab.hints.size();
    const auto shown = static_cast<std::size_t>(shown_so_far(lab, p));
    if (const LabProgress* l = p.find(lab.id); l && evidence_hint_due(*l)) {
        print_evidence_hint(lab, *l, shown + 1);
        p.lab(lab.id).evidence_shown = true;
        save_or_warn(p);
        return;
    }
    if (shown >= total) {
        // All shown: the most explicit one again, and where to go from here.
        print_hint(lab, total);
        print_no_more(ctx, lab);
        return;
    }
    print_hint(lab, shown + 1);
    if (shown + 1 == total)
        fmt::print("\nThat was the last hint; the walkthrough {} goes through every step.\n",
                   relative_to_root(ctx, lab.doc));
    p.lab(lab.id).hints_shown = static_cast<int>(shown + 1);
    save_or_warn(p);
}

int cmd_hint(Context& ctx, const std::string& lab_id, HintAction action)
{
    const LabInfo& lab = ctx.lab(lab_id);
    switch (action) {
    case HintAction::all_shown: return print_all_shown(ctx, lab);
    case HintAction::start_over: return start_over(ctx, lab);
    case HintAction::next: break;
    }
    show_next_hint(ctx, lab);
    return kPass;
}

}  // namespace hpclab::cli
