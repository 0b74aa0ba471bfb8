// A check's correctness runs as jobs (check/correctness.cpp), against the
// stand-in lab program: a task's sizes in one program, and what that
// program could not finish run again alone, each in a fresh process.
#include "check/correctness.h"
#include "check/evidence.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

struct Checked {
    std::vector<PlannedRun> plan;
    std::vector<std::optional<RunReport>> reports;
};

Checked correctness_of(const std::string& trick)
{
    static const GpuInfo no_gpu;
    const LabInfo& lab = lab_of("vecadd1");
    CorrectnessRuns runs {.lab = &lab, .tasks = {&lab.tasks.front()}, .program = "lab-program", .seed = 7,
                          .gpu = &no_gpu, .parallel = 2, .wrapper = {HPCLAB_LAB_STANDIN, trick}};
    Checked c;
    c.plan = plan_runs(lab, runs.tasks, false, false);
    c.reports = run_correctness(runs, c.plan);
    return c;
}

}  // namespace

TEST_CASE("correctness jobs: an honest program's sizes all pass, run together")
{
    const Checked c = correctness_of("vecadd");
    REQUIRE(c.plan.size() > 2);
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        REQUIRE(c.reports[j]);
        CHECK(verdict_of_run(lab_of("vecadd1").tasks.front(), c.plan[j].size.params, *c.reports[j]).verdict ==
              Verdict::pass);
        CHECK(c.reports[j]->ran_before.size() == j);  // one program, in the plan's order
    }
}

TEST_CASE("correctness jobs: the sizes a crash left unfinished run again alone, each in a fresh process")
{
    // The stand-in crashes in the second exchange of its command line only:
    // alone, each size is its program's first exchange, and passes.
    const Checked c = correctness_of("crash@1");
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        REQUIRE(c.reports[j]);
        CHECK(c.reports[j]->status == RunStatus::completed);
        // The first size finished in the program it shared; the others ran alone.
        CHECK(c.reports[j]->ran_before.empty());
        CHECK(c.reports[j]->process.signal == 0);
    }
}

TEST_CASE("correctness jobs: a program that ends early in every process is judged so at every size")
{
    const Checked c = correctness_of("exit");
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        REQUIRE(c.reports[j]);
        CHECK(c.reports[j]->status == RunStatus::ended_early);
    }
}
