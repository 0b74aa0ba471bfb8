// The threshold audit of report.md: for each timed task, the slowest pass,
// the fastest too slow file, their gap, and how many verdicts a 10 % move of
// the threshold flips, counted from the class's own speedups.
#include "grade/class_report.h"
#include "grade/gradebook.h"
#include "grade/threshold_audit.h"
#include "one_task_class.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::OneTaskClass;

namespace {

// A class of vecadd3 files timed against a threshold of 0.6x: each file's verdict and speedup.
OneTaskClass timed_class(const std::vector<std::pair<Verdict, std::optional<double>>>& timed)
{
    std::vector<TaskResult> add;
    for (const auto& [verdict, speedup] : timed) add.push_back({.verdict = verdict, .speedup = speedup, .threshold = 0.6});
    return OneTaskClass(add);
}

}  // namespace

TEST_CASE("threshold audit: the slowest pass, the fastest too slow file, and what a 10 % move flips")
{
    // Passes at 0.62 and 0.65 are within 10 % above 0.6 (below 0.66); too slow at 0.55 is within 10 %
    // below (at or above 0.54), 0.40 is not; the memcheck failure and the untimed pass are not timed.
    const OneTaskClass c = timed_class({{Verdict::pass, 0.62}, {Verdict::pass, 0.65}, {Verdict::pass, 0.90}, {Verdict::pass, 1.4},
                          {Verdict::too_slow, 0.55}, {Verdict::too_slow, 0.40}, {Verdict::inconclusive, 0.59},
                          {Verdict::memcheck, 2.0}, {Verdict::pass, std::nullopt}});
    const auto a = threshold_audit(c.book, c.column());
    REQUIRE(a);
    CHECK(a->threshold == doctest::Approx(0.6));
    CHECK(a->timed == 7);
    CHECK(a->pass == 4);
    CHECK(a->too_slow == 2);
    CHECK(a->inconclusive == 1);
    CHECK(*a->slowest_pass == doctest::Approx(0.62));
    CHECK(*a->fastest_too_slow == doctest::Approx(0.55));
    CHECK(*a->gap() == doctest::Approx(0.62 / 0.55));
    CHECK(a->fail_at_higher == 2);
    CHECK(a->pass_at_lower == 1);
    CHECK(a->splits_noise());  // 3 of 7

    const std::string md = threshold_audit_markdown(c.book);
    CHECK(contains(md, "| vecadd3.add | 0.60x | 7 | 4 | 2 | 1 | 0.62x | 0.55x | 1.13x | 1 | 2 |"));
    CHECK(contains(md, "- vecadd3.add: 3 of 7 timed verdicts change with a move of 10 %."));
    CHECK(contains(class_report_markdown(c.cls, c.book, c.results), "## Threshold audit"));
}

TEST_CASE("threshold audit: a class far from its threshold is said to be, and one never timed too")
{
    const OneTaskClass clear = timed_class({{Verdict::pass, 1.5}, {Verdict::pass, 2.0}, {Verdict::too_slow, 0.2}});
    const auto a = threshold_audit(clear.book, clear.column());
    REQUIRE(a);
    CHECK(a->pass_at_lower + a->fail_at_higher == 0);
    CHECK_FALSE(a->splits_noise());
    CHECK(*a->gap() == doctest::Approx(7.5));
    CHECK(contains(threshold_audit_markdown(clear.book), "No threshold flips a tenth of its task's verdicts"));

    // Only passes: no gap to give; only failures to run: no row at all.
    const OneTaskClass passes = timed_class({{Verdict::pass, 0.7}});
    CHECK_FALSE(threshold_audit(passes.book, passes.column())->gap());
    CHECK(contains(threshold_audit_markdown(passes.book), "| 0.70x | - | - | 0 | 0 |"));
    const OneTaskClass untimed = timed_class({{Verdict::wrong_answer, std::nullopt}});
    CHECK_FALSE(threshold_audit(untimed.book, untimed.column()));
    CHECK(contains(threshold_audit_markdown(untimed.book), "No file of this class was timed."));
}
