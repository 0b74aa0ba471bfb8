// The speed baseline's runs kept for reuse (check/baseline_times.h): what
// is the same run, and what is kept.
#include "check/baseline_times.h"
#include "check/timing.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

RunReport passed_run(double gpu_ms)
{
    RunReport r;
    r.status = RunStatus::completed;
    for (int k = 0; k < 3; ++k) r.calls.push_back(CallReport {.done = true, .gpu_ms = gpu_ms});
    return r;
}

}  // namespace

TEST_CASE("baseline times: a passed run is kept under its key, and the first one kept stays")
{
    const LabInfo& lab = lab_of("matmul");
    GpuInfo gpu;
    gpu.uuid = "GPU-1";
    const TaskInfo& naive = *lab.find_task("naive");
    const std::string key = baseline_key(gpu, lab, naive, naive.timing, naive.timing_reps);
    BaselineTimes times;
    CHECK_FALSE(times.find(key));
    RunReport failed = passed_run(1.0);
    failed.status = RunStatus::crashed;
    times.keep(key, failed);
    CHECK_FALSE(times.find(key));  // a failed run is nobody's baseline
    REQUIRE(passed_run(2.0).passed());
    times.keep(key, passed_run(2.0));
    times.keep(key, passed_run(3.0));
    REQUIRE(times.find(key));
    CHECK(times.find(key)->calls.front().gpu_ms == 2.0);
}

TEST_CASE("baseline times: another GPU, task, size or number of calls is another run")
{
    const LabInfo& lab = lab_of("matmul");
    GpuInfo gpu, other_gpu;
    gpu.uuid = "GPU-1";
    other_gpu.uuid = "GPU-2";
    const TaskInfo& naive = *lab.find_task("naive");
    const TaskInfo& tiled = *lab.find_task("tiled");
    const std::string key = baseline_key(gpu, lab, naive, naive.timing, naive.timing_reps);
    Params bigger = naive.timing;
    bigger.begin()->second *= 2;
    CHECK(key != baseline_key(other_gpu, lab, naive, naive.timing, naive.timing_reps));
    CHECK(key != baseline_key(gpu, lab, tiled, naive.timing, naive.timing_reps));
    CHECK(key != baseline_key(gpu, lab, naive, bigger, naive.timing_reps));
    CHECK(key != baseline_key(gpu, lab, naive, naive.timing, naive.timing_reps + 1));
    // matmul's two tasks are both timed against the baseline's naive task, at one size: one run.
    REQUIRE(tiled.threshold);
    CHECK(tiled.threshold->baseline == "naive");
    CHECK(key == baseline_key(gpu, lab, naive, tiled.timing, tiled.timing_reps));
}

TEST_CASE("baseline times: streams' two tasks are timed by one run of the baseline's pinned task")
{
    // overlap is timed against the one-stream sequence its baseline's own overlap task ran too: one
    // timed program fewer in a check's GPU turn (docs/results/streams-turn-h100.txt).
    const LabInfo& lab = lab_of("streams");
    GpuInfo gpu;
    gpu.uuid = "GPU-1";
    const TaskInfo& pinned = *lab.find_task("pinned");
    const TaskInfo& overlap = *lab.find_task("overlap");
    REQUIRE(baseline_task(lab, pinned) == &pinned);
    REQUIRE(baseline_task(lab, overlap) == &pinned);
    CHECK(baseline_key(gpu, lab, *baseline_task(lab, pinned), pinned.timing, pinned.timing_reps) ==
          baseline_key(gpu, lab, *baseline_task(lab, overlap), overlap.timing, overlap.timing_reps));
    CHECK(timing_frame(lab, overlap).baseline == "the pinned task of bench/streams/onestream.cu");
}

TEST_CASE("baseline times: checks that start together make one run: the first claims it, the others wait for it")
{
    BaselineTimes times;
    const std::string key = "GPU-1|0|bench/matmul/tuned.cu|naive|n=2048|5";
    CHECK_FALSE(times.wait_for(key, 5.0));  // nobody claimed it: no wait, no run
    REQUIRE(times.claim(key));
    CHECK_FALSE(times.claim(key));  // another check: it waits for the first one's run
    CHECK_FALSE(times.wait_for(key, 0.05));  // late: it makes its own
    std::thread claimant([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        times.keep(key, passed_run(2.0));
    });
    const auto t0 = std::chrono::steady_clock::now();
    const auto waited = times.wait_for(key, 10.0);
    claimant.join();
    REQUIRE(waited);
    CHECK(waited->calls.front().gpu_ms == 2.0);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));  // woken by the run, not the bound
    CHECK_FALSE(times.claim(key));  // kept: nothing left to claim
}

TEST_CASE("baseline times: a claim given up, or a failed run, wakes the waiters with nothing, and the key is free")
{
    BaselineTimes times;
    const std::string key = "GPU-1|0|bench/vecadd3/tuned.cu|add|n=16777216|5";
    REQUIRE(times.claim(key));
    std::thread claimant([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        times.give_up(key);  // its check ended before its timing
    });
    CHECK_FALSE(times.wait_for(key, 10.0));
    claimant.join();
    REQUIRE(times.claim(key));  // the waiter makes the run itself
    RunReport crashed = passed_run(1.0);
    crashed.status = RunStatus::crashed;
    times.keep(key, crashed);
    CHECK_FALSE(times.find(key));
    CHECK(times.claim(key));  // a failed run ends the claim too
}
