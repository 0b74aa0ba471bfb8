// Starting a program in its own process group, with a wall-clock limit,
// bounded capture of what it prints, and nothing of it left running after.
#pragma once

#include "process/bwrap.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hpclab {

struct ProcessSpec {
    std::vector<std::string> argv;
    std::filesystem::path cwd;       // empty: the parent's
    std::vector<int> pass_fds;       // descriptors the child keeps, at the same numbers
    std::vector<std::pair<std::string, std::string>> set_env;  // variables set in the child (empty values too)
    double wall_limit_s = 10;
    std::size_t output_limit = 1 << 20;  // per stream; the rest is read and dropped
    const std::atomic<bool>* cancel = nullptr;  // when it turns true, the process group is killed
    std::function<void()> after_start;  // called in the parent once the program runs
    // While true, the wall limit waits (or, once done_tags are read, the
    // linger limit): it counts from the moment it turns false (a program
    // held at a gate, gate.h, is not using its time).
    const std::atomic<bool>* held = nullptr;
    // Set: once it turns true the program is not wanted any more, and it has
    // `dismissed_limit_s` to end (then it is stopped, a time limit).
    const std::atomic<bool>* dismissed = nullptr;
    double dismissed_limit_s = 0;
    // Non-empty: the program runs on these CPUs only (timed runs: the same
    // ones for the baseline and the student, see lab_check.cpp).
    std::vector<int> cpus;
    // Non-empty: every line of stdout that starts with this is kept with the
    // moment hpclab read it (the harness's call markers: what the parent
    // itself saw of a run's progress), past the output limit too.
    std::string tag_prefix;
    // Non-empty: tagged lines that, read in this order, each start the wall
    // limit anew, once (a program that runs several exchanges gets the limit
    // for each, from the moment its GPU is ready for it). Until the first,
    // the program has `startup_limit_s`: making a CUDA context waits for the
    // other programs' on a busy GPU, which is no fault of this one. Each
    // counts once, in order: a program that prints them itself (it can read
    // its marker) gets no more time than their number of limits.
    std::vector<std::string> limit_restart_tags;
    double startup_limit_s = 0;  // with limit_restart_tags; 0: wall_limit_s
    // Called, from the thread that reads the program's output, as the first
    // of limit_restart_tags is read (the harness has its GPU): quick, or it
    // holds up the reading.
    std::function<void()> on_first_restart;
    // Non-empty: tagged lines that, read in this order, say the program's
    // work is done (the harness's marks of its last exchange and last call).
    // From then on it and whatever it started have `linger_limit_s` to end:
    // a tool it runs under (compute-sanitizer) waits for every process of the
    // program's tree, and a child left sleeping must not hold the run until
    // the wall limit. Printed early by the program itself, they only cut its
    // own run short.
    std::vector<std::string> done_tags;
    double linger_limit_s = 0;  // set with done_tags (RunRequest::linger_limit_s says how long)
    // Set: the program runs inside this sandbox (process/sandbox.h).
    std::optional<SandboxSpec> sandbox;
    // Limits the kernel keeps per process, set before exec (0: none). Core
    // dumps are always off: a crash must not write the program's memory out.
    std::uint64_t file_size_limit_bytes = 0;
    // Non-empty: the program joins this cgroup (its cgroup.procs) before it
    // starts, or does not start (process/cgroup.h).
    std::filesystem::path cgroup_procs;
    // Called once the program itself has ended, before hpclab waits for its
    // output to close: what it left behind can be ended there (cgroup.kill).
    std::function<void()> after_exit;
};

// A line of stdout that began with ProcessSpec::tag_prefix, and when the
// parent read it (seconds since the program started, the parent's clock).
struct TaggedLine {
    std::string text;
    double at_s = 0;
};

struct ProcessResult {
    bool started = false;
    std::string start_error;   // why it could not start
    int exit_code = -1;        // when it exited
    int signal = 0;            // when a signal ended it
    bool timed_out = false;    // killed at the wall limit (or lingering: see below)
    bool lingered = false;     // killed linger_limit_s after its done_tags: something of it kept running
    bool cancelled = false;    // killed because `cancel` turned true
    bool unkillable = false;   // still there 20 s after SIGKILL (stuck in the GPU driver)
    bool file_size_limit = false;  // ended by SIGXFSZ: it wrote past file_size_limit_bytes
    std::string limit_message;     // a limit of its cgroup it met (process/cgroup.h), set by the caller
    std::string out, err;
    bool out_truncated = false, err_truncated = false;
    std::vector<TaggedLine> tagged;  // in the order read
    double wall_s = 0;

    bool exited() const { return started && signal == 0 && !timed_out && !cancelled; }
};

ProcessResult run_process(const ProcessSpec& spec);

// How many programs run_process has seen end other than by themselves, in
// this process so far: ended by a signal, or stopped by hpclab (a limit,
// a cancel). Such an end can leave the GPU hurt (run/gpu_health.h).
std::uint64_t programs_stopped();

// "segmentation fault (SIGSEGV)"
std::string describe_signal(int sig);

}  // namespace hpclab
