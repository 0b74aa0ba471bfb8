// A check's correctness runs as jobs (check/correctness.cpp), against the
// stand-in lab program: a task's sizes in one program; what that program
// could not finish, together again in a program per task, then alone until
// the task's first failure.
#include "check/correctness.h"
#include "check/evidence.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>

#include <set>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

struct Checked {
    std::vector<PlannedRun> plan;
    std::vector<std::optional<RunReport>> reports;
};

enum class Inputs { as_they_run, ahead };

Checked correctness_of(const std::string& trick, const LabInfo& lab = lab_of("vecadd1"), bool every_task = false,
                       double hang_after_s = 0, Inputs inputs = Inputs::as_they_run)
{
    static const GpuInfo no_gpu;
    std::vector<const TaskInfo*> tasks = {&lab.tasks.front()};
    if (every_task)
        for (std::size_t i = 1; i < lab.tasks.size(); ++i) tasks.push_back(&lab.tasks[i]);
    CorrectnessRuns runs {.lab = &lab, .tasks = tasks, .program = "lab-program", .seed = 7,
                          .gpu = &no_gpu, .parallel = 2, .wrapper = {HPCLAB_LAB_STANDIN, trick},
                          .hang_after_s = hang_after_s};
    Checked c;
    c.plan = plan_runs(lab, runs.tasks, false, false);
    InputsAhead ahead;
    if (inputs == Inputs::ahead) {  // as a check makes them: the program not built yet
        CorrectnessRuns unbuilt = runs;
        unbuilt.program.clear();
        ahead = make_inputs_ahead(unbuilt, c.plan);
    }
    c.reports = run_correctness(runs, c.plan, std::move(ahead));
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

TEST_CASE("correctness jobs: inputs made before the program is built are the runs' own, and judged the same")
{
    // Made ahead (a check makes them while the file compiles), the honest
    // program passes every size in one program; a program that writes zeros
    // fails there, and the crash's unfinished sizes, run again in
    // fresh processes with inputs of their own, pass.
    const Checked honest = correctness_of("vecadd", lab_of("vecadd1"), false, 0, Inputs::ahead);
    REQUIRE(honest.plan.size() > 2);
    for (std::size_t j = 0; j < honest.plan.size(); ++j) {
        REQUIRE(honest.reports[j]);
        CHECK(honest.reports[j]->passed());
        CHECK(honest.reports[j]->ran_before.size() == j);
    }
    const Checked wrong = correctness_of("zero_outputs", lab_of("vecadd1"), false, 0, Inputs::ahead);
    REQUIRE(wrong.reports[0]);
    CHECK(wrong.reports[0]->status == RunStatus::completed);
    CHECK_FALSE(wrong.reports[0]->passed());
    const Checked crash = correctness_of("crash@1", lab_of("vecadd1"), false, 0, Inputs::ahead);
    for (std::size_t j = 0; j < crash.plan.size(); ++j) {
        REQUIRE(crash.reports[j]);
        CHECK(crash.reports[j]->passed());
        CHECK(crash.reports[j]->ran_before.empty());
    }
}

TEST_CASE("correctness jobs: inputs made for another plan are refused, not run against the wrong runs")
{
    const LabInfo& lab = lab_of("vecadd1");
    static const GpuInfo no_gpu;
    CorrectnessRuns runs {.lab = &lab, .tasks = {&lab.tasks.front()}, .program = "lab-program", .seed = 7,
                          .gpu = &no_gpu, .parallel = 2, .wrapper = {HPCLAB_LAB_STANDIN, "vecadd"}};
    std::vector<PlannedRun> plan = plan_runs(lab, runs.tasks, false, false);
    InputsAhead ahead = make_inputs_ahead(runs, plan);
    REQUIRE(plan.size() > 2);
    std::swap(plan[0], plan[1]);  // the same runs, another order: two exchanges are another size's
    CHECK_THROWS_AS(run_correctness(runs, plan, std::move(ahead)), std::logic_error);
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

TEST_CASE("correctness jobs: a program that ends early in every process is run alone once: its verdict is known")
{
    // Together, it ends in the first size; alone, the first size ends early
    // again, and the task's other sizes are not run: each would be a fresh
    // process to learn what the first already says.
    const Checked c = correctness_of("exit");
    REQUIRE(c.plan.size() > 2);
    REQUIRE(c.reports[0]);
    CHECK(c.reports[0]->status == RunStatus::ended_early);
    CHECK(c.reports[0]->ran_before.empty());
    for (std::size_t j = 1; j < c.plan.size(); ++j) CHECK_FALSE(c.reports[j]);
}

TEST_CASE("correctness jobs: an output cut at its limit decides the task: the sizes after it are not run alone")
{
    // Every exchange prints past the limit, then computes right. The
    // program of every size: its output cut, no size's share of it can be
    // told (run/exchange_shares.h), so they run alone; the first, alone,
    // is cut again: the task's verdict (output_limit) is known, and each
    // size more would be a fresh process (vecadd3's output_flood.cu ran its
    // ten others in call 22b, 22 s).
    const Checked c = correctness_of("flood");
    REQUIRE(c.plan.size() > 3);
    REQUIRE(c.reports[0]);
    CHECK(c.reports[0]->process.out_truncated);
    CHECK(c.reports[0]->ran_before.empty());  // alone
    CHECK(verdict_of_run(lab_of("vecadd1").tasks.front(), c.plan[0].size.params, *c.reports[0]).verdict ==
          Verdict::output_limit);
    for (std::size_t j = 1; j < c.plan.size(); ++j) CHECK_FALSE(c.reports[j]);
}

TEST_CASE("correctness jobs: a task whose program finished a run tampered with is not run again: its verdict is known")
{
    // The program claims its first size's calls done unseen (tampering: no
    // run's verdict outranks it), then crashes in its second: the sizes it
    // left would each run alone, to learn nothing the first does not say.
    const Checked c = correctness_of("claim_unseen,crash");
    REQUIRE(c.plan.size() > 2);
    REQUIRE(c.reports[0]);
    CHECK(verdict_of_run(lab_of("vecadd1").tasks.front(), c.plan[0].size.params, *c.reports[0]).verdict ==
          Verdict::tampering);
    for (std::size_t j = 1; j < c.plan.size(); ++j) CHECK_FALSE(c.reports[j]);
}

TEST_CASE("correctness jobs: a run finished wrong leaves the sizes after it to run: a crash there outranks it")
{
    // The first size wrong, the second crashes: alone, the second size is
    // its program's first exchange (wrong again, which ends its task's runs).
    const Checked c = correctness_of("zero_outputs,crash");
    REQUIRE(c.plan.size() > 2);
    REQUIRE(c.reports[0]);
    CHECK_FALSE(c.reports[0]->passed());
    REQUIRE(c.reports[1]);
    CHECK(c.reports[1]->ran_before.empty());  // alone
}

TEST_CASE("correctness jobs: a crash in every program leaves each task judged at its first size, in a program per task")
{
    // The program of both tasks crashes in its first exchange; then each
    // task's sizes go together in a program of their own, which crashes
    // too; then each task's first size alone, which decides it.
    const LabInfo& lab = lab_of("vecadd2");
    const Checked c = correctness_of("crash", lab, true);
    std::set<std::size_t> judged;
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        CAPTURE(j);
        const bool first_of_task = j == 0 || c.plan[j - 1].task != c.plan[j].task;
        if (!first_of_task) {
            CHECK_FALSE(c.reports[j]);
            continue;
        }
        REQUIRE(c.reports[j]);
        CHECK(c.reports[j]->status == RunStatus::crashed);
        CHECK(c.reports[j]->ran_before.empty());
        judged.insert(c.plan[j].task);
    }
    CHECK(judged.size() == 2);
}

TEST_CASE("correctness jobs: after a program that could not finish, each task's program runs at once")
{
    // Every program crashes a second after it starts: the program of both
    // tasks, then a program per task, then each task's first size alone.
    // The tasks' programs at once: three seconds of crashes; one task after
    // the other it was five (each waited for its own shared GPU turn, too).
    const LabInfo& lab = lab_of("vecadd2");
    REQUIRE(lab.tasks.size() == 2);
    const auto t0 = std::chrono::steady_clock::now();
    const Checked c = correctness_of("crash_late", lab, true);
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::size_t judged = 0;
    for (const auto& r : c.reports) judged += r && r->status == RunStatus::crashed;
    CHECK(judged == 2);  // each task at its first size
    CHECK(took_s < 4.5);
}

TEST_CASE("correctness jobs: the plain sizes of every task run in one program")
{
    const LabInfo& lab = lab_of("vecadd2");
    REQUIRE(lab.tasks.size() == 2);
    const Checked c = correctness_of("vecadd", lab, true);
    REQUIRE(c.plan.size() > 2);
    std::set<std::size_t> tasks;
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        REQUIRE(c.reports[j]);
        tasks.insert(c.plan[j].task);
        CHECK(c.reports[j]->status == RunStatus::completed);
        CHECK(c.reports[j]->ran_before.size() == j);  // one program, in the plan's order
    }
    CHECK(tasks.size() == 2);
}

TEST_CASE("correctness jobs: a time-out stops its task's other sizes, and the other task's sizes still run")
{
    LabInfo lab = lab_of("vecadd2");
    lab.wall_limit_s = 1;
    // The stand-in hangs in the third exchange of every program: the first
    // task's third size, in the program they all share; then, in the program
    // of their own that the second task's sizes get, that task's third.
    const Checked c = correctness_of("hang@2", lab, true);
    REQUIRE(c.plan.size() > 4);
    REQUIRE(c.plan[2].task == 0);
    std::size_t second_task_runs = 0;
    for (std::size_t j = 0; j < c.plan.size(); ++j) {
        CAPTURE(j);
        const std::size_t in_program = c.plan[j].task == 0 ? j : second_task_runs++;
        if (in_program < 2) {
            REQUIRE(c.reports[j]);
            CHECK(c.reports[j]->status == RunStatus::completed);
            CHECK(c.reports[j]->ran_before.size() == in_program);
        } else if (in_program == 2) {
            REQUIRE(c.reports[j]);
            CHECK(c.reports[j]->status == RunStatus::timed_out);
        } else {
            CHECK_FALSE(c.reports[j]);  // its task timed out: not waited out again
        }
    }
    CHECK(second_task_runs > 3);
}

TEST_CASE("correctness jobs: a plain size's own limit, below the lab's, cuts a hang sooner and says so")
{
    LabInfo lab = lab_of("vecadd1");
    lab.wall_limit_s = 60;
    const auto t0 = std::chrono::steady_clock::now();
    const Checked c = correctness_of("hang@0", lab, false, 1);
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(c.reports[0]);
    CHECK(c.reports[0]->status == RunStatus::timed_out);
    CHECK(c.reports[0]->status_message.find("still running after 1 s") != std::string::npos);
    CHECK(took_s < 30);  // not the lab's 60 s
}

TEST_CASE("correctness jobs: the check hears once that the runs' inputs are made, while their program still runs")
{
    // The stand-in that hangs until its 1 s limit: the callback comes with
    // the inputs made, long before the runs end (not at the latest moment,
    // as run_correctness returns), and only once.
    using Clock = std::chrono::steady_clock;
    const LabInfo& lab = lab_of("vecadd1");
    static const GpuInfo no_gpu;
    std::atomic<int> told {0};
    Clock::time_point told_at {};
    CorrectnessRuns runs {.lab = &lab, .tasks = {&lab.tasks.front()}, .program = "lab-program", .seed = 7,
                          .gpu = &no_gpu, .parallel = 2, .wrapper = {HPCLAB_LAB_STANDIN, "hang"},
                          .hang_after_s = 1,
                          .once_inputs_made = [&] {
                              if (++told == 1) told_at = Clock::now();
                          }};
    const std::vector<PlannedRun> plan = plan_runs(lab, runs.tasks, false, false);
    const auto reports = run_correctness(runs, plan);
    const Clock::time_point returned_at = Clock::now();
    CHECK(told == 1);
    CHECK(returned_at - told_at > std::chrono::milliseconds(500));  // the program ran 1 s after it
    REQUIRE(reports.front());
    CHECK(reports.front()->status == RunStatus::timed_out);
}

TEST_CASE("correctness jobs: the check hears the runs are under way only once their program has its GPU")
{
    // The stand-in that says its GPU is ready 1.5 s late (a context made on
    // a busy GPU): the timed programs, started at the callback, would have
    // made their contexts beside its own. Late in its first exchange only:
    // the context is made once (late in every exchange, the test waited
    // 1.5 s for each of the plan's runs).
    using Clock = std::chrono::steady_clock;
    const LabInfo& lab = lab_of("vecadd1");
    static const GpuInfo no_gpu;
    std::atomic<int> told {0}, inputs_told {0};
    Clock::time_point told_at {}, inputs_told_at {};
    CorrectnessRuns runs {.lab = &lab, .tasks = {&lab.tasks.front()}, .program = "lab-program", .seed = 7,
                          .gpu = &no_gpu, .parallel = 2, .wrapper = {HPCLAB_LAB_STANDIN, "open_slowly@0"},
                          .once_inputs_made = [&] {
                              if (++inputs_told == 1) inputs_told_at = Clock::now();
                          },
                          .once_under_way = [&] {
                              if (++told == 1) told_at = Clock::now();
                          }};
    const std::vector<PlannedRun> plan = plan_runs(lab, runs.tasks, false, false);
    const Clock::time_point started_at = Clock::now();
    const auto reports = run_correctness(runs, plan);
    CHECK(told == 1);
    CHECK(inputs_told == 1);
    // The inputs are said before the program starts, its GPU 1.5 s after it started: lower bounds only, which
    // a busy machine cannot break.
    CHECK(told_at - started_at > std::chrono::milliseconds(1400));
    CHECK(told_at - inputs_told_at > std::chrono::milliseconds(1400));  // the inputs did not wait for the GPU
    REQUIRE(reports.front());
    CHECK(reports.front()->status == RunStatus::completed);
}

TEST_CASE("plan: the big sizes only when asked, and only those the GPU's memory holds")
{
    const LabInfo& lab = lab_of("rotation");
    const std::vector<const TaskInfo*> tasks = {lab.find_task("naive")};
    const auto bigs = [&](bool big, std::uint64_t memory) {
        int n = 0;
        for (const PlannedRun& r : plan_runs(lab, tasks, big, false, memory)) n += r.size.big;
        return n;
    };
    // 46349 x 46341 floats in and out: 17.2 GB of device buffers.
    CHECK(bigs(false, 80'000'000'000ull) == 0);
    CHECK(bigs(true, 80'000'000'000ull) == 1);
    CHECK(bigs(true, 16'000'000'000ull) == 0);
    CHECK(bigs(true, 0) == 1);  // memory unknown: the run itself refuses what does not fit
    const TaskSpec& spec = *find_task_spec("rotation", "naive");
    CHECK(fits_gpu(spec, tasks[0]->sizes.front().params, 1'000'000));
}
