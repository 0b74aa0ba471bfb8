// The run recipes (run/run_recipe.h): what a correctness run and a timed run
// ask of the lab program, the same for check, run and bench; and the names
// builds are cached under.
#include "run/run_recipe.h"
#include "run/toolchain.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

using namespace hpclab;
using hpclab::test::lab_of;
using hpclab::test::TempDir;

TEST_CASE("run recipe: a correctness run traces every call, with the lab's wall limits")
{
    const LabInfo& lab = lab_of("matmul");
    RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "/p", .params = {{"n", 33}}, .seed = 7};
    RunRequest r = correctness_run(t);
    CHECK(r.trace == RunRequest::Trace::every_call);
    CHECK(r.ncalls == 1);
    CHECK(r.input_sets == 0);  // fresh inputs
    CHECK(r.judge_outputs);
    CHECK(r.guard_zones);
    CHECK(r.seed == 7);
    CHECK(r.spec == find_task_spec("matmul", "naive"));
    CHECK(r.wall_limit_s == doctest::Approx(lab.wall_limit_s));
    t.big = true;
    CHECK(correctness_run(t).wall_limit_s == doctest::Approx(lab.big_wall_limit_s));
}

TEST_CASE("run recipe: the table of a run's limits: lab.json's, a plain size cut by the command, never a timed run")
{
    const LabInfo& lab = lab_of("matmul");  // "limits": its own wall_s and big_wall_s
    RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "/p", .params = {{"n", 33}}};
    CHECK(correctness_run(t, {.hang_after_s = kHangAfterSeconds}).wall_limit_s == doctest::Approx(kHangAfterSeconds));
    CHECK(correctness_run(t, {.hang_after_s = 0}).wall_limit_s == doctest::Approx(lab.wall_limit_s));
    CHECK(correctness_run(t, {.hang_after_s = 2 * lab.wall_limit_s}).wall_limit_s == doctest::Approx(lab.wall_limit_s));
    const RunRequest tool = correctness_run(t, {.under_sanitizer = true, .hang_after_s = kHangAfterSeconds});
    // A command's cut holds the sanitizer's runs to 4 times it (their shared
    // turn keeps every timed phase of the machine waiting); without a cut, the lab's.
    CHECK(tool.wall_limit_s == doctest::Approx(kSanitizerSlowdown * kHangAfterSeconds));
    CHECK(tool.wall_limit_s < std::max(60.0, 4 * lab.wall_limit_s));
    CHECK(correctness_run(t, {.under_sanitizer = true}).wall_limit_s ==
          doctest::Approx(std::max(60.0, 4 * lab.wall_limit_s)));
    CHECK(tool.trace == RunRequest::Trace::none);
    CHECK_FALSE(tool.guard_zones);
    CHECK(timed_run(t, {}).wall_limit_s == doctest::Approx(lab.wall_limit_s));
    CHECK(correctness_run(t).linger_limit_s == doctest::Approx(kLingerLimitSeconds));
    t.big = true;  // the cut is a plain size's only
    CHECK(correctness_run(t, {.hang_after_s = kHangAfterSeconds}).wall_limit_s == doctest::Approx(lab.big_wall_limit_s));
    CHECK(timed_run(t, {}).wall_limit_s == doctest::Approx(lab.big_wall_limit_s));
    // Every course lab's wall_s is above check's cut: in check it is the timed runs' limit.
    for (const LabInfo& l : hpclab::test::catalog().labs()) {
        CAPTURE(l.id);
        CHECK(l.wall_limit_s > kHangAfterSeconds);
        CHECK(wall_limit_s(l, RunUse::plain, kHangAfterSeconds) == doctest::Approx(kHangAfterSeconds));
        CHECK(ready_wait_s(l) >= 2 * l.wall_limit_s);
    }
}

TEST_CASE("run recipe: a timed run is a warm-up and the reps, cycling input sets, cold, untraced")
{
    const LabInfo& lab = lab_of("vecadd3");
    const RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "/p", .params = {{"n", 1 << 20}}};
    const RunRequest r = timed_run(t, {.reps = 8});
    CHECK(r.ncalls == 9);
    CHECK(r.input_sets == kTimingInputSets);
    CHECK(r.flush_l2);
    CHECK(r.outputs_only);
    CHECK(r.trace == RunRequest::Trace::none);
    CHECK(r.reference_budget == doctest::Approx(kTimedReferenceBudget));
    CHECK(r.cpus == timing_cpus());
    CHECK(r.judge_outputs);
    CHECK_FALSE(r.measure_copy);
    const RunRequest baseline = timed_run(t, {.reps = 1, .judge_outputs = false, .measure_copy = true});
    CHECK(baseline.ncalls == 2);
    CHECK(baseline.input_sets == 2);  // never more sets than calls
    CHECK_FALSE(baseline.judge_outputs);
    CHECK(baseline.measure_copy);
}

TEST_CASE("run recipe: the last two CPUs for the timed programs, the rest for everything else")
{
    std::vector<int> sixteen(16);
    for (int c = 0; c < 16; ++c) sixteen[c] = c;
    const CpuSplit split = split_cpus(sixteen);
    CHECK(split.timed == std::vector<int> {14, 15});
    CHECK(split.rest == std::vector<int>(sixteen.begin(), sixteen.end() - 2));
    const CpuSplit sparse = split_cpus({0, 2, 5, 7});  // a cpuset with holes: by position, not number
    CHECK(sparse.timed == std::vector<int> {5, 7});
    CHECK(sparse.rest == std::vector<int> {0, 2});
    const CpuSplit two = split_cpus({0, 1});  // too few to set two aside: anywhere
    CHECK(two.timed.empty());
    CHECK(two.rest.empty());
}

TEST_CASE("run recipe: a timed run keeps to the timing CPUs, which nothing else uses, and ends on the others")
{
    const LabInfo& lab = lab_of("vecadd3");
    const RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "/p", .params = {{"n", 1 << 20}}, .gpu_minor = 1};
    CHECK(timed_run(t, {}).cpus == timing_cpus());
    CHECK(timed_run(t, {}).cpus_after_calls == untimed_cpus());  // its end beside the next program's calls
    CHECK(correctness_run(t, {}).cpus_after_calls.empty());
    for (int c : timing_cpus()) CHECK(std::find(untimed_cpus().begin(), untimed_cpus().end(), c) == untimed_cpus().end());
}

TEST_CASE("run recipe: a run again to confirm a finding load could make is the same run on the timing CPUs")
{
    // The caller holds the GPU alone for it: no timed program uses those CPUs meanwhile.
    const LabInfo& lab = lab_of("streams");
    const RunTarget t {.lab = &lab, .task = lab.find_task("overlap"), .program = "/p", .params = {{"n", 1 << 22}}};
    const RunRequest first = correctness_run(t);
    CHECK(first.cpus.empty());  // a correctness run goes where hpclab's own threads go
    const RunRequest again = confirming_run(first);
    CHECK(again.cpus == timing_cpus());
    CHECK(again.trace == first.trace);
    CHECK(again.params == first.params);
    CHECK(again.wall_limit_s == doctest::Approx(first.wall_limit_s));
}

TEST_CASE("run recipe: hpclab leaves the timing CPUs to the timed programs (in a child: this process keeps its CPUs)")
{
    const std::vector<int> expected = untimed_cpus();  // empty where there are too few: nothing changes
    cpu_set_t before;
    CPU_ZERO(&before);
    REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        leave_timing_cpus();
        cpu_set_t now;
        CPU_ZERO(&now);
        if (sched_getaffinity(0, sizeof now, &now) != 0) _exit(2);
        if (expected.empty()) _exit(CPU_EQUAL(&now, &before) ? 0 : 1);
        cpu_set_t want;
        CPU_ZERO(&want);
        for (int c : expected) CPU_SET(c, &want);
        _exit(CPU_EQUAL(&now, &want) ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    for (int c : timing_cpus()) CHECK(std::find(expected.begin(), expected.end(), c) == expected.end());
}

TEST_CASE("build names: the lab's files by role, any other file by its name and place")
{
    const LabInfo& lab = lab_of("vecadd3");
    CHECK(build_name(lab, lab.student_source()) == "student");
    CHECK(build_name(lab, lab.solution_source()) == "solution");
    CHECK(build_name(lab, lab.baseline_source) == "baseline");
    TempDir dir;
    const auto a = dir.write("a/vecadd3.cu", "x");
    const auto b = dir.write("b/vecadd3.cu", "x");
    CHECK(build_name(lab, a).rfind("file-vecadd3-", 0) == 0);
    CHECK(build_name(lab, a) != build_name(lab, b));  // two files of one name never share a program
    CHECK(build_name(lab, a) == build_name(lab, a));
}
