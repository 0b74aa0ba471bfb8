// How hpclab sets up a run of a lab program, in one place for every
// command. Two recipes:
// - a correctness run: the calls' outputs all checked, every call traced
//   (CUPTI), fresh inputs per call;
// - a timed run: a warm-up call then the timed ones, on the parent's clock,
//   each call's inputs made by the program from a seed hpclab sends as the
//   call starts (wire/reveal.h; a task whose inputs are not all fills cycles
//   through a few input sets kept on the device, input_sets.h), each call
//   starting with a cold L2 cache, only outputs copied back, on the same two
//   CPUs.
// `hpclab check` times its student and its baseline this way, `hpclab bench`
// its variants, and `hpclab run` the demo size: their times compare.
#pragma once

#include "course/lab_catalog.h"
#include "process/cgroup.h"
#include "run/run_request.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hpclab {

// Input sets the timed calls cycle through: consecutive calls always
// differ, and each call costs a device copy, not a host one.
inline constexpr std::uint32_t kTimingInputSets = 3;
// Reference operations a timed call may cost before outputs are sampled: a
// result cached or skipped is wrong nearly everywhere, so a sample finds it.
inline constexpr double kTimedReferenceBudget = 2e7;
// Elements a large timed call is judged on where the task says which input
// elements each output element reads (TaskSpec::reads_known): drawn after
// the program ended, from a key it never saw, with only their inputs made
// again. A file wrong at a fraction f of the elements passes a timed
// program's c calls (the warm-up among them: every one is judged) with odds
// (1 - f)^(c * 4096): below 1 in 10^10 at f = 0.1% for six calls, and work
// skipped at 0.1% buys no speed. Every element is still checked for the
// poison and bound by the call's commitment; the correctness runs compare
// every element. What it saves: making the inputs of aos_soa's timed soa
// calls (eight arrays of 2^24 floats each) took longer than timing them, and
// judging stencil's nine timed calls at 2^24 whole took longer than its
// GPU turn (docs/results/check-times-h200.txt).
inline constexpr std::uint64_t kTimedSample = 4096;
// Empty calls a trusted program's timed run starts with (wire::Handshake):
// their median on the parent's clock is the harness's own cost of a call.
inline constexpr std::uint32_t kEmptyCalls = 5;

// A submission's host memory and processes (its cgroup scope, process/cgroup.h):
// the CUDA context and the tools need a few GiB; the harness and the
// student's code hold copies of the buffers, `data_bytes` of them. A flood
// far past what the data explains meets the limit. Every run of a student's
// program has these, the program lab's (which has no buffers) too.
inline CgroupLimits submission_limits(std::uint64_t data_bytes)
{
    return {.memory_bytes = (4ull << 30) + 3 * data_bytes, .pids = 512};
}

// The one path every process of a student's program runs by, whatever its
// lab's kind (a lab program on its exchanges, run/task_runner.cpp; a whole
// program, check/program_check.cpp): `ps` (its sandbox from
// process/sandbox.h submission_sandbox, its wall limit from wall_limit_s
// below) in a cgroup scope of its own where one can be made, with
// submission_limits(data_bytes), everything it left killed as it ends.
// `ended` is called once every process of the run has ended, before the
// scope's word on its limits is read into the result (limit_message).
ProcessResult run_submission(ProcessSpec& ps, std::uint64_t data_bytes, const std::function<void()>& ended = {});

// Bytes one file written by a run of a submission may take (its work
// folder, /tmp): a lab writes none; a submission that writes without end
// meets this.
inline constexpr std::uint64_t kSubmissionFileLimitBytes = 64ull << 20;

// What every run names: the lab program, the task it runs, the size.
struct RunTarget {
    const LabInfo* lab = nullptr;
    const TaskInfo* task = nullptr;
    std::filesystem::path program;
    Params params;
    std::uint64_t seed = 0;
    std::uint64_t gpu_memory_bytes = 0;  // 0: unknown
    int gpu_minor = -1;                  // the GPU's /dev/nvidia<minor>, the one node its sandbox gets (-1: all)
    std::string gpu_uuid;                // non-empty: the run sees this GPU alone (GpuInfo::visible_as)
    bool big = false;                    // a size past 2^31 bytes: the lab's longer wall limit
    ProgramFacts facts;                  // of `program`, read when it was built (unknown: not checked)
};

// A run's time limits, one table for every command (seconds), filled here
// from lab.json's "limits" and the command's policy:
//   what runs                 its wall limit
//   a plain size              "wall_s"; a command may cut it shorter (hang_after_s:
//                             hpclab check, kHangAfterSeconds; see below)
//   a size past 2^31 bytes    "big_wall_s"
//   under compute-sanitizer   4 x "wall_s", at least 60 s: the tool slows a program
//   (or ncu: check/profile.h) tenfold and more, and takes seconds to start; a
//                             command that cuts plain sizes cuts these at 4 x its cut
//   a timed run               "wall_s", or "big_wall_s" at a big size; never cut
// and every run has kStartupLimitSeconds until its CUDA context is made and
// kLingerLimitSeconds to end after its last call; a timed program its check
// no longer needs, kDismissedLimitSeconds to end (run/task_runner.h). A
// check's first timed rounds wait ready_wait_s for their programs ready.
//
// Why check cuts a plain size: a size takes milliseconds, so one not done
// in 10 s hangs, and the student hears so then rather than after the lab's
// whole limit (20 to 60 s). Every course lab's "wall_s" is above the cut, so
// in check it applies to the timed runs and the big sizes; `hpclab run`,
// selftest and grade give plain sizes the lab's limit: with many programs
// on a GPU, all of them stalled for seconds at moments (correct runs of one
// wave were cut at 10 s), which the lab's limit absorbs.
inline constexpr double kHangAfterSeconds = 10;
// The sanitizer's runs have 4 times a plain run's limit. In check that is
// 40 s, not the lab's 60 s or more: a sanitizer run holds a shared turn on the GPU
// (gpu/gpu_turns.h), so while one that never ends runs out its limit every
// other check's timed phase on the machine waits for it, and after it, by
// the turns' fairness gate, every new run too (a class's grading, a test
// run: tests/hostile/vecadd3/stall_under_sanitizer.cu).
inline constexpr double kSanitizerSlowdown = 4;
enum class RunUse { plain, big, sanitizer };
// `hang_after_s`: the command's cut of a plain size (0: the lab's limit).
double wall_limit_s(const LabInfo& lab, RunUse use, double hang_after_s = 0);
double ready_wait_s(const LabInfo& lab);

struct CorrectnessOptions {
    bool under_sanitizer = false;  // no trace, no guard zones (the tool must see the true ends), its limit
    double hang_after_s = 0;       // a plain size's cut (0: the lab's limit)
};
RunRequest correctness_run(const RunTarget& target, const CorrectnessOptions& options = {});

struct TimedOptions {
    int reps = 5;                 // timed calls after the warm-up
    bool judge_outputs = true;    // false: a trusted baseline's outputs stay on the GPU
    bool measure_copy = false;    // time a device copy after the calls (the bandwidth ceiling)
    // Empty calls first: the harness's own cost on hpclab's clock (check's
    // timing takes the lesser of both programs' out; the claims check allows it).
    bool measure_harness = false;
};
RunRequest timed_run(const RunTarget& target, const TimedOptions& options);
// A plain run again, whose finding the machine's other work could have made
// (check/evidence.h, bent_by_load): the caller holds the GPU alone for it,
// and it runs on the timed CPUs, which no program uses while the GPU is held
// alone. Whether a pipeline's copies run beside its kernels depends on how
// soon the host queues them too: an honest breadth-first streams file (every
// copy in, then every kernel) came out with none overlapped, run again with
// the GPU alone, beside the README's other tests on an H200 (call 13c).
RunRequest confirming_run(RunRequest request);

// The CPUs the timed programs run on (empty: any).
const std::vector<int>& timing_cpus();
// The others: where everything else runs (compiles, correctness and
// sanitizer programs, hpclab's own threads making inputs and judging), so
// that nothing shares a CPU with the timed calls (empty: any).
const std::vector<int>& untimed_cpus();
// The split of the CPUs a process may use: a pair of the last ones for the
// timed programs, the rest for everything else; none with fewer than four.
struct CpuSplit {
    std::vector<int> timed;
    std::vector<int> rest;
};
CpuSplit split_cpus(const std::vector<int>& allowed);
// This process, the threads it starts after and the programs they start
// keep to untimed_cpus() (a timed program moves to timing_cpus() as it
// starts). Called first thing: in a class's grading on the H100, hpclab's
// threads and the other checks' programs ran on any CPU, and one correct
// file of 360 had timed calls up to 3.5 times slower than the rest of its
// own (too close to call): a busy timing CPU is one cause hpclab can remove.
void leave_timing_cpus();

// The CUDA environment of every program hpclab puts on the GPU (lab
// programs, sanitizer runs, the health check's canary), in one place.
//
// CUDA_DEVICE_MAX_CONNECTIONS=1 unless the lab says otherwise (lab.json
// "device_max_connections", LabInfo): a context then opens one hardware
// work queue, not eight. Contexts are made one at a time across the
// machine, and a class's grading makes hundreds (one per program); with one
// queue each is made about three times sooner (scripts/ctx-cost.sh measures
// both on the GPU at hand). What it costs: the streams of one program share
// the queue, so their kernels do not run side by side (the timed calls wait
// for the whole device anyway: a kernel on a student's own stream is timed
// all the same). The streams lab, whose lesson is work on several streams at
// once, sets its own value (its lab.json says what was measured).
// `gpu_uuid` non-empty: the program sees that GPU alone (CUDA_VISIBLE_DEVICES).
inline constexpr int kDefaultDeviceMaxConnections = 1;
std::vector<std::pair<std::string, std::string>> cuda_env(const std::string& gpu_uuid,
                                                          int max_connections = kDefaultDeviceMaxConnections);

}  // namespace hpclab
