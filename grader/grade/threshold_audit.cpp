#include "grade/threshold_audit.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

// How far the audit moves each threshold, both ways: a file's speed ratio
// moves by several percent from one check to the next on a quiet GPU
// (docs/results/timing-noise-h200.txt), so a verdict that a 10 % move flips
// is one a regrade could flip too.
constexpr double kMove = 0.10;

}  // namespace

std::optional<double> ThresholdAudit::gap() const
{
    if (!slowest_pass || !fastest_too_slow || *fastest_too_slow <= 0) return std::nullopt;
    return *slowest_pass / *fastest_too_slow;
}

bool ThresholdAudit::splits_noise() const { return timed > 0 && 10 * (pass_at_lower + fail_at_higher) >= timed; }

std::optional<ThresholdAudit> threshold_audit(const Gradebook& book, std::size_t column)
{
    if (!book.columns.at(column).task->threshold) return std::nullopt;
    ThresholdAudit a;
    a.threshold = book.columns[column].task->threshold->min_speedup;
    bool threshold_seen = false;
    for (const BookRow& r : book.rows) {
        const TaskResult* t = r.cells.at(column).result;
        if (!t || !t->speedup) continue;
        const Verdict v = t->verdict;
        if (v != Verdict::pass && v != Verdict::too_slow && v != Verdict::inconclusive) continue;
        const double s = *t->speedup;
        const double threshold = t->threshold.value_or(a.threshold);
        if (!threshold_seen) a.threshold = threshold, threshold_seen = true;
        ++a.timed;
        if (v == Verdict::pass) {
            ++a.pass;
            a.slowest_pass = std::min(a.slowest_pass.value_or(s), s);
            if (s < threshold * (1 + kMove)) ++a.fail_at_higher;
        } else if (v == Verdict::too_slow) {
            ++a.too_slow;
            a.fastest_too_slow = std::max(a.fastest_too_slow.value_or(s), s);
            if (s >= threshold * (1 - kMove)) ++a.pass_at_lower;
        } else {
            ++a.inconclusive;
        }
    }
    if (a.timed == 0) return std::nullopt;
    return a;
}

std::string threshold_audit_markdown(const Gradebook& book)
{
    std::string out = fmt::format(
        "\n## Threshold audit\n\nFor each timed task, how the class's speedups fall around its threshold "
        "(speedups.svg draws them): the slowest file that passed, the fastest that was too slow, and how many "
        "verdicts the threshold {0:g} % lower or {0:g} % higher would change. Where that is a tenth of the files or "
        "more, the threshold splits the class's timing noise rather than its work: `hpclab calibrate` measures the "
        "course's own versions against it.\n\n",
        kMove * 100);
    std::string rows, flagged;
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        const auto a = threshold_audit(book, i);
        if (!a) continue;
        const auto speedup = [](const std::optional<double>& s) { return s ? fmt::format("{:.2f}x", *s) : "-"; };
        rows += fmt::format("| {} | {:.2f}x | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", book.columns[i].name(),
                            a->threshold, a->timed, a->pass, a->too_slow, a->inconclusive, speedup(a->slowest_pass),
                            speedup(a->fastest_too_slow), speedup(a->gap()), a->pass_at_lower, a->fail_at_higher);
        if (a->splits_noise())
            flagged += fmt::format("- {}: {} of {} timed verdicts change with a move of {:g} %.\n", book.columns[i].name(),
                                   a->pass_at_lower + a->fail_at_higher, a->timed, kMove * 100);
    }
    if (rows.empty()) return out + "No file of this class was timed.\n";
    out += "| task | threshold | timed | pass | too slow | inconclusive | slowest pass | fastest too slow | gap | "
           "pass 10 % lower | fail 10 % higher |\n|---|---|---|---|---|---|---|---|---|---|---|\n" +
           rows;
    out += flagged.empty() ? "\nNo threshold flips a tenth of its task's verdicts with a move of 10 %.\n"
                           : "\nThresholds that split noise:\n\n" + flagged;
    return out;
}

}  // namespace hpclab
