// Several sizes of one task in one program (run_tasks_together), against a
// stand-in lab program that plays its trick in one exchange: each size is
// judged as if it had run alone; what the program could not finish is left
// to run alone, in a fresh process; a time-out ends the sizes after it.
#include "check/evidence.h"
#include "run/task_runner.h"
#include "run/run_recipe.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

const std::vector<Params> kSizes = {{{"n", 1}}, {{"n", 1000}}, {{"n", 5000}}};

std::vector<std::optional<RunReport>> together(const std::string& trick, double wall_limit_s = 20)
{
    const LabInfo& lab = lab_of("vecadd1");
    std::vector<RunRequest> reqs;
    for (const Params& p : kSizes) {
        RunRequest req = correctness_run(
            {.lab = &lab, .task = &lab.tasks.front(), .program = "lab-program", .params = p, .seed = 5});
        req.wrapper = {HPCLAB_LAB_STANDIN, trick};
        req.wall_limit_s = wall_limit_s;
        reqs.push_back(std::move(req));
    }
    return run_tasks_together(reqs);
}

Verdict verdict_of(std::size_t size, const RunReport& r)
{
    return verdict_of_run(lab_of("vecadd1").tasks.front(), kSizes[size], r).verdict;
}

}  // namespace

TEST_CASE("together: an honest program's sizes each pass, judged from their own exchange")
{
    const auto reports = together("vecadd");
    REQUIRE(reports.size() == 3);
    for (std::size_t e = 0; e < 3; ++e) {
        REQUIRE(reports[e]);
        CHECK(reports[e]->status == RunStatus::completed);
        CHECK(verdict_of(e, *reports[e]) == Verdict::pass);
        REQUIRE(reports[e]->calls.size() == 1);
        CHECK(reports[e]->calls[0].done);
    }
}

TEST_CASE("together: what each size printed is its own")
{
    const auto reports = together("print");
    for (std::size_t e = 0; e < 3; ++e) {
        REQUIRE(reports[e]);
        const std::string& out = reports[e]->process.out;
        for (std::size_t other = 0; other < 3; ++other)
            CHECK((out.find("printed in exchange " + std::to_string(other)) != std::string::npos) == (other == e));
    }
}

TEST_CASE("together: a wrong size is that size's verdict, and the others pass")
{
    const auto reports = together("modify_input@2");
    REQUIRE(reports[0]);
    REQUIRE(reports[2]);
    CHECK(verdict_of(0, *reports[0]) == Verdict::pass);
    CHECK(verdict_of(1, *reports[1]) == Verdict::pass);
    CHECK(verdict_of(2, *reports[2]) == Verdict::input_modified);
}

TEST_CASE("together: a crash or an exit in one size leaves it and the sizes after it to run alone")
{
    for (const char* trick : {"crash@1", "exit@1"}) {
        CAPTURE(trick);
        const auto reports = together(trick);
        REQUIRE(reports[0]);
        CHECK(verdict_of(0, *reports[0]) == Verdict::pass);
        CHECK_FALSE(reports[1]);
        CHECK_FALSE(reports[2]);
    }
}

TEST_CASE("together: a size that hangs meets the time limit, counted from its own start, and the sizes after it are cancelled")
{
    const auto reports = together("hang@1", 1.5);
    REQUIRE(reports[0]);
    REQUIRE(reports[1]);
    REQUIRE(reports[2]);
    CHECK(verdict_of(0, *reports[0]) == Verdict::pass);
    CHECK(reports[1]->status == RunStatus::timed_out);
    CHECK(reports[2]->status == RunStatus::cancelled);
    // Three sizes of 0.6 s each fit a limit of 1 s each, not in all.
    const auto slow = together("slow", 1.0);
    for (std::size_t e = 0; e < 3; ++e) {
        REQUIRE(slow[e]);
        CHECK(slow[e]->status == RunStatus::completed);
    }
}

TEST_CASE("together: a size claimed finished that hpclab never saw run is tampering, as alone")
{
    const auto reports = together("claim_unseen@1");
    REQUIRE(reports[0]);
    REQUIRE(reports[1]);
    REQUIRE(reports[2]);
    CHECK(verdict_of(0, *reports[0]) == Verdict::pass);
    CHECK(reports[1]->status == RunStatus::tampered);
    CHECK(verdict_of(2, *reports[2]) == Verdict::pass);
}

TEST_CASE("together: a wrong size that ran after others says which, as the state kept between calls may be why")
{
    const auto reports = together("zero_outputs@2");
    REQUIRE(reports[2]);
    CHECK(reports[2]->ran_before.size() == 2);
    const auto findings = findings_of_run(lab_of("vecadd1").tasks.front(), {kSizes[2], "", false}, *reports[2]);
    REQUIRE_FALSE(findings.empty());
    CHECK(findings.front().kind == Verdict::wrong_answer);
    CHECK(findings.front().message.find("ran after add n=1, add n=1000 (task and size) in the same program") != std::string::npos);
    REQUIRE(reports[0]);
    CHECK(reports[0]->ran_before.empty());
}
