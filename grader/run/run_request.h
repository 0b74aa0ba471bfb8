// A run of a lab program as asked (RunRequest: what runs, how, and the
// hooks of its steps) and as judged (RunReport, a CallReport per call): the
// types every step of a run shares, so that the steps (run/claims,
// run/call_driver, run/run_recipe) need not include the run's orchestration
// (run/task_runner.h).
#pragma once

#include "run/exchange_file.h"
#include "run/gate.h"
#include "course/lab_catalog.h"
#include "process/process.h"
#include "run/program_facts.h"
#include "course/task_spec.h"

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// Two limits of every run (the table of a run's limits: run/run_recipe.h).
// Until its CUDA context is made, a program has this long: on a GPU busy
// with other checks (a class's wave, the test suite), contexts are made one
// at a time, and a fault's recovery holds them up: with ten checks at once,
// a run was killed at a 10 s limit before its first call.
inline constexpr double kStartupLimitSeconds = 30;
// Once its last call is done, the program and all it started have this long
// to end: then it is stopped, a time limit (ProcessSpec::done_tags).
inline constexpr double kLingerLimitSeconds = 20;
// A timed program its check no longer needs (its gate closed before its
// calls) has this long to leave, then it is stopped (ProcessSpec::dismissed):
// one at its gate leaves at once, one making its CUDA context behind a
// class's others soon after; one still in a static constructor of the
// student's would hold its check, and in a class the GPU's timed turns,
// until its wall limit.
inline constexpr double kDismissedLimitSeconds = 5;

struct MadeInputs;  // make_inputs

// What runs: the lab program, the task, the size, its calls and their inputs.
struct RunSubject {
    const LabInfo* lab = nullptr;
    const TaskInfo* task = nullptr;
    const TaskSpec* spec = nullptr;
    Params params;
    std::filesystem::path program;
    std::uint32_t ncalls = 1;        // each verified
    // Distinct input sets, cycled through by the calls (call k gets set
    // k % input_sets), kept on the device by the program. 0: a fresh set for
    // every call. Timed runs use a few: consecutive calls still get different
    // inputs, at a device copy's cost instead of the host's.
    std::uint32_t input_sets = 0;
    std::uint64_t seed = 0;
    // What hpclab read from the program it built: the trace's claims are
    // checked against it (claims.h). Unknown: nothing is checked.
    ProgramFacts facts;
};

// How it runs: its clock, what is traced and judged, where, and its limits
// (the run recipes fill these: run/run_recipe.h).
struct RunManner {
    // Timed runs: on the parent's clock (run/call_driver.h), each call's
    // inputs made by the program from a seed sent as the call starts
    // (wire/reveal.h); needs fills for every input (all_inputs_filled).
    // `empty_calls` handshakes of nothing first: on a trusted program, the
    // harness's own cost, taken out of every program's times.
    bool parent_clock = false;
    std::uint32_t empty_calls = 0;
    bool flush_l2 = false;           // start every call with a cold L2 cache
    // Set by the run recipes from the one table of limits (run_recipe.h,
    // wall_limit_s); no default of its own: run_task refuses 0.
    double wall_limit_s = 0;
    std::uint64_t gpu_memory_bytes = 0;  // 0: unknown; else refuse sizes that cannot fit
    int gpu_minor = -1;                  // its sandbox gets /dev/nvidia<minor> only (-1: every GPU's)
    std::string gpu_uuid;                // non-empty: CUDA_VISIBLE_DEVICES=<uuid> (hpclab grade --gpus)

    enum class Trace { none, every_call, first_call };
    Trace trace = Trace::none;      // CUPTI records of the student's calls
    bool guard_zones = true;        // off under compute-sanitizer, which must see the true ends
    bool measure_copy = false;      // time a device copy after the calls (the bandwidth ceiling)
    // Timed runs: only the outputs come back. The inputs in the exchange are
    // still hashed (the program could write there), not read back from the GPU.
    bool outputs_only = false;
    // False: the outputs stay on the GPU and nothing is judged, inputs
    // included (a trusted program's timed runs: the reference solution as a
    // baseline). Its calls then all count as passed.
    bool judge_outputs = true;
    std::vector<std::string> wrapper;  // a command the program runs under (compute-sanitizer ...)
    std::vector<std::filesystem::path> wrapper_folders;  // what it reads besides its own file (ncu's install)
    double linger_limit_s = kLingerLimitSeconds;
    // Reference operations per call before outputs are sampled: timed calls
    // need less (a cached or skipped result is wrong nearly everywhere).
    double reference_budget = 4e8;
    std::vector<int> cpus;  // run the program on these CPUs only (process.h)
    // A gated program's CPUs once its calls are over (gate.h, wait_finished):
    // its end must not take the CPU of the next timed program.
    std::vector<int> cpus_after_calls;
    // Inside the sandbox (process/sandbox.h), when one can be made here.
    bool sandboxed = true;
    // Folders the program (or the tool it runs under) may write besides its
    // own work folder: a sanitizer's log.
    std::vector<std::filesystem::path> writable;
};

// The moments of a run its caller hears of (RunHooks::at), in this order.
enum class RunMoment {
    // The run's exchanges are made (its inputs), its program not started: a
    // check starts its next host work then, not while the runs' inputs are
    // still being made (they would wait for each other).
    inputs_made,
    // The program has its GPU (the harness said so, or claims to): a check
    // starts its timed programs then, not while the runs' own program still
    // waits for its CUDA context (they are made one at a time). Said on the
    // thread that reads the program's output: quick.
    gpu_opened,
    // The program and every process of its run have ended: a timed
    // program's time alone on the GPU ends here.
    program_ended,
    // The judging is next, and waits for the call to return: a timed
    // program's outputs are judged once the last timed calls of its GPU turn
    // are done (judged at once, they took the host beside the next
    // program's timed calls: check/timing.cpp, run_in_turn).
    judging_next,
};

// What the caller hears and says while it runs: three callbacks, a flag,
// the gate and the inputs made ahead.
struct RunHooks {
    // Replaces the spec's generator for every call (an image file).
    std::function<void(CallBuffers&)> fill_inputs;
    // Called with the first call's buffers once it is judged (to save an
    // output image): the exchange ends with run_task, so this is the one
    // moment they can be read.
    std::function<void(const CallBuffers&)> on_first_outputs;
    const std::atomic<bool>* cancel = nullptr;  // stops the program when it turns true
    // Set: the program prepares, then waits at this gate until the caller
    // says go (gate.h); run_task then returns once the calls are done.
    std::shared_ptr<Gate> gate;
    // Called at each moment of the run (RunMoment), on the thread that
    // reaches it; a caller ignores the moments it does not need.
    std::function<void(RunMoment)> at;
    // Valid: the run's exchange made ahead (make_inputs of this request
    // alone, while the program was still being built): run_task takes it
    // when it was made for this request, and makes its own otherwise.
    std::shared_future<std::shared_ptr<MadeInputs>> inputs_ahead;

    void say(RunMoment m) const
    {
        if (at) at(m);
    }
};

// One run: what runs, how, and the hooks, each part declared on its own
// and read as one (req.program, req.wall_limit_s, req.gate).
struct RunRequest : RunSubject, RunManner, RunHooks {};

struct CallReport {
    bool done = false;  // the program finished this call and wrote it back
    CheckResult check;
    std::vector<std::string> inputs_modified;  // input buffers the call wrote into
    std::vector<std::string> guards_damaged;   // buffers written past an end
    int returned = 0;
    int launch_error = 0;
    double host_ms = 0;
    double gpu_ms = 0;
    wire::CallTrace trace {};  // traced == 0 when not recorded
    double observed_ms = 0;    // from the call's start to its end, as hpclab saw them (claims.h)
    double parent_ms = 0;      // parent-clock runs: from go to done on hpclab's own clock

    bool passed() const { return done && check.ok() && inputs_modified.empty() && guards_damaged.empty(); }
};

enum class RunStatus {
    completed,          // every call ran; the checks say the rest
    no_gpu,             // the program found no GPU
    too_large,          // the size does not fit this GPU's memory
    could_not_start,
    timed_out,          // killed at the wall limit
    crashed,            // ended by a signal
    gpu_fault,          // a CUDA error the harness caught after the student's code
    student_cuda_error, // the student's cudaSafeCall/cudaCheckError stopped the program
    ended_early,        // exited before finishing (exit() in the lab code?)
    harness_error,      // the harness could not do its job: not the student's fault
    cancelled,          // stopped by the caller (another run of the task hit the time limit)
    tampered,           // what the program claims contradicts what hpclab saw (claims.h)
    limit_hit,          // past a limit of the sandbox (file size, memory, processes)
};

struct RunReport {
    RunStatus status = RunStatus::could_not_start;
    std::string status_message;  // one line when not completed
    ProcessResult process;
    std::vector<CallReport> calls;
    std::string device_name;
    std::string computed;  // what the first call computed, in one line (TaskSpec::summarize)
    bool trace_available = false;  // CUPTI ran in the program
    double copy_bytes_per_s = 0;   // measure_copy: device copy bandwidth, bytes read + written per second
    std::uint64_t seed = 0;
    bool parent_clock = false;  // the calls' parent_ms are hpclab's clock
    double harness_ms = 0;      // the quickest empty call on hpclab's clock (empty_calls > 0)
    std::vector<double> empty_calls_ms;  // every empty call, in order (their spread)
    Work work;
    std::uint64_t host_output_bytes = 0;  // the outputs the contract puts in host memory (device_finishes)
    // What the program made before main and still held then (the releases
    // invariant), as the harness recorded it: a claim held only against it.
    wire::ResourceLedger before_main {};
    std::string tool_log;  // what the tool the program ran under reported in its own log (compute-sanitizer)
    // The runs the same program made before this one (run_tasks_together),
    // each as "<task> <size>": state the student's code keeps between calls
    // meets this one there.
    std::vector<std::string> ran_before;

    bool passed() const;
    // Median GPU time of the timed calls (all but the first, the warm-up).
    double median_gpu_ms() const;
    double median_host_ms() const;
    // The first failing call's check, or nullptr.
    const CallReport* first_failure() const;
};

}  // namespace hpclab
