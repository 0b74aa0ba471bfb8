// Turns on the GPUs for the checks that share them: correctness runs share
// the GPU (several checks' at once), a timed phase has it alone. What these
// turns keep, each for what was measured:
// - The machine-wide lock. The turns hold across processes and GPUs:
//   every hpclab on this machine (two students' checks on a lab server, the
//   tests of a ctest run, a grading, each GPU's chunk of one) takes them on
//   one pair of lock files in a machine-wide folder (kDefaultLockFolder, or
//   $HPCLAB_GPU_TURNS_DIR): a shared turn holds flock(LOCK_SH) on the lock
//   file, an alone turn LOCK_EX. One lock file for all the machine's GPUs:
//   a program's calls into the driver on one GPU slow a timed call on
//   another (scripts/gpu-crosstalk.sh, on two H100s: a reduction's
//   cudaMalloc, copy back and cudaFree 38 times slower on average while
//   contexts were made on the other GPU, 2.5 times while programs there
//   allocated; two correct reductions came out too_slow when each GPU timed
//   on its own, docs/instructors.md).
// - The fairness gate. Once a timed phase waits, no new shared turn starts
//   before it: neither std::shared_mutex nor Linux's flock prefers a
//   waiting writer, and in a grading the shared turns overlap nearly without
//   a gap (the 40 x 9 class graded on an H100: 239 s of shared turns, 120 s
//   of 264 timed phases, 8 s with no turn at all; docs/results/
//   calibration-h100.txt), so a timed phase that waited for a gap would
//   starve (tests/cpu/gpu/test_gpu_turns_processes.cpp fails without it).
//   Between processes a second file, the gate, keeps it: alone turns hold
//   it (shared) while they wait, and a shared turn starts only while nobody
//   does, so the timed phases that wait go one after another, before any
//   shared turn (lock_across_processes says what that saves).
// - The give-up clock (kOtherProcessesWait_s): see there.
// - The accounting (split()): where the GPU's time went, which a grading
//   prints; the figures above are its output.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

namespace hpclab {

class GpuTurns {
public:
    // The lock files' folder unless $HPCLAB_GPU_TURNS_DIR names another.
    static constexpr const char* kDefaultLockFolder = "/tmp/hpclab-gpu-turns";
    // The longest a turn waits for other processes' turns on the GPU: far
    // above what other checks' timings hold it for (the 40 x 9 class on an
    // H100: 264 timed phases, 120 s alone in all; docs/results/
    // calibration-h100.txt), so only a process that never lets go meets it.
    // Past it the turn goes on without them (and the turns after it only
    // try, until one gets in): a process that holds its turn and never ends
    // (an hpclab stopped with Ctrl-Z during its timing) must not hold every
    // other user's check for ever. The timing then sees the other processes
    // on the GPU and says it was not reliable (timing.cpp).
    static constexpr double kOtherProcessesWait_s = 600;

    class Turn {
    public:
        Turn(GpuTurns* turns, bool alone);
        ~Turn();
        Turn(const Turn&) = delete;
        Turn& operator=(const Turn&) = delete;

    private:
        GpuTurns* turns_;
        bool alone_;
        int lock_fd_ = -1;  // this turn's own descriptor of the machine's lock file, flock held; -1: none
        double granted_at_ = 0;  // timeline_clock() when it began (util/timeline.h)
    };

    // Turns in this process only: checks that share one GpuTurns object
    // take turns with each other, not with other processes (tests).
    GpuTurns() = default;
    // Turns on the GPU of `uuid` (GpuInfo::uuid) with every process on this
    // machine that takes them too, on any of its GPUs. No UUID, or lock
    // files that cannot be made or opened: turns in this process only, as
    // above. `wait_s`: the longest wait for other processes' turns (tests
    // shorten it).
    explicit GpuTurns(const std::string& uuid, double wait_s = kOtherProcessesWait_s);
    GpuTurns(const GpuTurns&) = delete;
    GpuTurns& operator=(const GpuTurns&) = delete;

    // The GPUs' performance counters, one profiler at a time on the machine:
    // a second ncu while one profiles is refused by the driver ("a driver
    // resource was unavailable": two too-slow files' checks in one test run,
    // call 19e). Held, besides a shared turn, for an ncu run's life (check/
    // profile.h); other programs share the GPU meanwhile. Across processes by
    // flock on a lock file of its own (kCountersName; in one process too: each
    // hold opens the file anew). `held()` false: not had within `wait_s`
    // (another profiler kept it), or no lock file could be made; the profile
    // goes on, and if another profiler runs, the driver's refusal makes it
    // inconclusive.
    class Counters {
    public:
        explicit Counters(double wait_s);
        ~Counters();
        Counters(const Counters&) = delete;
        Counters& operator=(const Counters&) = delete;
        bool held() const { return fd_ >= 0; }

    private:
        int fd_ = -1;
    };
    static constexpr const char* kCountersName = "counters";

    // No turns (a null GpuTurns*) is a GPU of one's own: every turn is free.
    static Turn shared(GpuTurns* turns) { return Turn(turns, false); }
    static Turn alone(GpuTurns* turns) { return Turn(turns, true); }

    // Whether the turns hold across processes (the lock files could be opened).
    bool across_processes() const { return !machine_lock_.empty(); }
    // The folder the lock files are in: $HPCLAB_GPU_TURNS_DIR or kDefaultLockFolder.
    static std::filesystem::path lock_folder();
    // The lock file's name in it (the gate's: this and ".gate"), the machine's.
    static constexpr const char* kLockName = "gpus";

    // Wall seconds since this object was made, by what held the GPU. A turn
    // counts from when this process gave it, waiting for other processes'
    // turns included (a grading rarely shares its GPU with other hpclabs).
    struct Split {
        double alone_s = 0;   // a timed phase (one check's timed calls)
        double shared_s = 0;  // one or more programs of correctness or sanitizer runs
        double free_s = 0;    // no turn: the checks were building, judging, waiting for programs to start
        int alone_turns = 0;
    };
    Split split();

private:
    using Clock = std::chrono::steady_clock;
    void account(Clock::time_point now);  // under mutex_: the time since the last change to its state
    // This turn's descriptor of the machine's lock file, with flock held
    // through the gate; -1 when the lock files cannot be opened or the wait is over.
    int lock_across_processes(bool alone);

    std::mutex mutex_;
    std::condition_variable changed_;
    int sharing_ = 0;
    int waiting_alone_ = 0;
    bool alone_ = false;
    Split split_;
    Clock::time_point since_ = Clock::now();
    std::filesystem::path machine_lock_, gate_lock_;  // empty: turns in this process only
    std::string on_;  // " on GPU-43d564dc": which GPU, on the timeline (chunks on several); empty: none named
    double wait_s_ = kOtherProcessesWait_s;
    std::atomic<bool> gave_up_ {false};  // the last wait for other processes was over
};

// `run()` (a run_task of `req`, run/task_runner.h) with a turn on the GPU
// for as long as its program runs: the turn ends as the program does
// (RunMoment::program_ended), before the judging, which needs none. The
// request's own hooks hear every moment as before.
template <class Request, class Run> auto while_program_runs(GpuTurns* turns, bool alone, Request& req, Run run)
{
    std::optional<GpuTurns::Turn> turn(std::in_place, turns, alone);
    auto own = req.at;
    req.at = [own, &turn](auto moment) {
        if (own) own(moment);
        if (moment == decltype(moment)::program_ended) turn.reset();
    };
    auto result = run();
    turn.reset();  // a program that never started has not said its end
    req.at = std::move(own);
    return result;
}

}  // namespace hpclab
