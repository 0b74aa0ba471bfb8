// The verdict function: the precedence of evidence, the sanitizer naming the
// cause of a wrong answer, and the worst of several tasks.
#include "check/decide.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {
Finding f(Verdict v, std::string where = "n=1") { return Finding {v, std::string(verdict_name(v)), "", where}; }
TaskVerdict decide_of(std::vector<Finding> findings) { return decide(TaskEvidence {"t", std::move(findings)}); }
}  // namespace

TEST_CASE("verdict: no findings, or only passes, is a pass")
{
    CHECK(decide_of({}).verdict == Verdict::pass);
    CHECK(decide_of({f(Verdict::pass), f(Verdict::pass)}).verdict == Verdict::pass);
}

TEST_CASE("verdict: the grading model's order decides")
{
    // grader error > compile error > time limit > crash / GPU fault > output limit > wrong answer >
    // lesson (launch, shared memory) > sanitizer > speed > pass
    const std::vector<Verdict> order = {
        Verdict::grader_error, Verdict::compile_error, Verdict::time_limit,     Verdict::crash,
        Verdict::cuda_error,   Verdict::gpu_fault,     Verdict::output_limit,   Verdict::no_output,
        Verdict::input_modified, Verdict::out_of_bounds, Verdict::wrong_answer, Verdict::not_on_gpu,
        Verdict::wrong_launch, Verdict::no_shared_memory, Verdict::not_released, Verdict::slow_copies, Verdict::memcheck,
        Verdict::race,         Verdict::too_slow,      Verdict::inconclusive,   Verdict::suspicious};
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j) {
            CAPTURE(verdict_name(order[i]));
            CAPTURE(verdict_name(order[j]));
            // The sanitizer explains a wrong answer, an out-of-bounds write or missing output.
            const bool explained = (order[j] == Verdict::memcheck || order[j] == Verdict::race) &&
                                   (order[i] == Verdict::wrong_answer || order[i] == Verdict::out_of_bounds ||
                                    order[i] == Verdict::no_output);
            const Verdict want = explained ? order[j] : order[i];
            CHECK(decide_of({f(order[j]), f(order[i])}).verdict == want);
            CHECK(decide_of({f(order[i]), f(order[j])}).verdict == want);
        }
}

TEST_CASE("verdict: a sanitizer finding names the cause of a wrong answer, not of a crash")
{
    const TaskVerdict v = decide_of({f(Verdict::wrong_answer, "n=1000003"), f(Verdict::race, "n=1025")});
    CHECK(v.verdict == Verdict::race);
    CHECK(v.reason.where == "n=1025");
    REQUIRE(v.also.size() == 1);
    CHECK(v.also[0].kind == Verdict::wrong_answer);
    CHECK(decide_of({f(Verdict::crash), f(Verdict::memcheck)}).verdict == Verdict::crash);
    CHECK(decide_of({f(Verdict::time_limit), f(Verdict::race)}).verdict == Verdict::time_limit);
    CHECK(decide_of({f(Verdict::wrong_launch), f(Verdict::memcheck)}).verdict == Verdict::wrong_launch);
}

TEST_CASE("verdict: the first finding of the deciding kind is the reason, other kinds listed once")
{
    const TaskVerdict v = decide_of({f(Verdict::too_slow, "n=16M"), f(Verdict::wrong_answer, "n=1"),
                                     f(Verdict::wrong_answer, "n=100"), f(Verdict::no_shared_memory, "n=1"),
                                     f(Verdict::no_shared_memory, "n=100")});
    CHECK(v.verdict == Verdict::wrong_answer);
    CHECK(v.reason.where == "n=1");
    REQUIRE(v.also.size() == 2);
    CHECK(v.also[0].kind == Verdict::no_shared_memory);
    CHECK(v.also[1].kind == Verdict::too_slow);
}

TEST_CASE("verdict: not run when nothing could run, but a failure still counts")
{
    const TaskVerdict none = decide_of({Finding {Verdict::not_run, "no GPU here: no driver", "", ""}});
    CHECK(none.verdict == Verdict::not_run);
    CHECK(none.reason.message == "no GPU here: no driver");  // the reason is said, never empty
    CHECK(decide_of({f(Verdict::not_run), f(Verdict::compile_error)}).verdict == Verdict::compile_error);
}

TEST_CASE("verdict: the worst task decides the lab")
{
    const auto tv = [](Verdict v) { return TaskVerdict {"t", v, {}, {}}; };
    CHECK(worst({tv(Verdict::pass), tv(Verdict::too_slow), tv(Verdict::wrong_answer)}) == Verdict::wrong_answer);
    CHECK(worst({tv(Verdict::pass), tv(Verdict::pass)}) == Verdict::pass);
    CHECK(worst({tv(Verdict::pass), tv(Verdict::not_run)}) == Verdict::not_run);
    CHECK(worst({tv(Verdict::not_run), tv(Verdict::race)}) == Verdict::race);
}

TEST_CASE("verdict: names round-trip, and every name is known")
{
    for (int i = 0; i <= static_cast<int>(Verdict::not_run); ++i) {
        const auto v = static_cast<Verdict>(i);
        CHECK(verdict_from_name(verdict_name(v)) == v);
        CHECK_FALSE(verdict_title(v).empty());
    }
    CHECK_FALSE(verdict_from_name("wrong answer"));
    CHECK(is_failure(Verdict::too_slow));
    CHECK_FALSE(is_failure(Verdict::pass));
    CHECK_FALSE(is_failure(Verdict::not_run));
}

TEST_CASE("verdict: a name the table had before is read as the verdict that took its place")
{
    // Course configs ("credit") and grade records written before the
    // invariant "releases" widened memory_leak still say memory_leak.
    REQUIRE(verdict_from_name("memory_leak"));
    CHECK(*verdict_from_name("memory_leak") == Verdict::not_released);
    CHECK(verdict_name(Verdict::not_released) == "not_released");
    CHECK_FALSE(verdict_from_name("memory_leaks"));
}
