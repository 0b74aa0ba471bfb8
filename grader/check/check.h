// `hpclab check`: judges every graded task of a lab. It builds the
// student's file (and the speed baseline), runs every size in a fresh
// process, reads the CUPTI records of what the code launched, runs
// compute-sanitizer on small sizes, times the task against its baseline in
// the same check, and turns all of that into one verdict per task
// (check/decide.h). The student's process decides nothing.
//
//   build ──> correctness runs ──> evidence ──> timing ──> decide
//   (check.cpp)  (plan, correctness)  (evidence)   (timing)   (decide)
#pragma once

#include "check/baseline_times.h"
#include "gpu/gpu_turns.h"
#include "check/plan.h"
#include "check/timing.h"
#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "gpu/gpu_probe.h"
#include "run/run_recipe.h"
#include "run/sanitizer.h"
#include "run/task_runner.h"
#include "run/toolchain.h"

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// The student's file built before its check started: hpclab check starts
// the compile before it looks for the GPU (the driver's start, cuInit,
// takes a tenth of a second the compile need not wait for).
struct StartedBuild {
    BuildResult build;
    double seconds = 0;  // its compile's own
};
// Not valid where check_lab builds the file itself: the baseline (built once,
// with the timing's).
std::shared_future<StartedBuild> start_student_build(const Toolchain& tc, const LabInfo& lab,
                                                     const std::filesystem::path& source);

struct CheckOptions {
    std::filesystem::path source;   // the file to judge
    std::shared_future<StartedBuild> started_build;  // valid: the build of `source` under way (start_student_build)
    std::string only_task;          // empty: every task
    std::optional<std::uint64_t> seed;
    bool sanitizer = true;
    bool timing = true;
    bool big = false;               // also the sizes past 2^31 bytes
    int parallel_runs = 4;          // correctness runs at once (the GPU shares well; timing runs alone)
    std::function<void(const std::string&)> progress;  // a line as each step ends
    // Where GPUs taken out of service are marked (run/gpu_health.h); empty:
    // the GPU's health is not checked after the runs.
    std::filesystem::path gpu_service_dir;
    // Shared with the other checks on this GPU (hpclab grade; hpclab check
    // makes one for its GPU, which holds across processes): correctness
    // runs take a shared turn, timing takes the GPU alone. Null: a GPU of
    // this check's own.
    GpuTurns* gpu_turns = nullptr;
    // The speed baseline's runs that other checks made on this GPU, to reuse
    // (hpclab grade: once per lab, not once per file; baseline_times.h).
    // Null: this check times the baseline itself.
    BaselineTimes* baseline_times = nullptr;
    // A plain size's cut: not done after this many seconds, it hangs
    // (run/run_recipe.h, the table of a run's limits, says why). 0: the
    // lab's limit, as hpclab grade gives.
    double hang_after_s = kHangAfterSeconds;
};

// One fresh process of the lab program.
struct SizeRun {
    SizeCase size;
    RunReport report;
    InputEnds ends = InputEnds::none;  // the inputs of a range_ends run (check/plan.h)
};

struct SanitizerRun {
    std::string tool;  // memcheck, racecheck
    SizeCase size;
    RunReport report;
    SanitizerReport findings;
    // The task's plain runs finished their calls: a run that ended early
    // only under the tool behaved differently when watched.
    bool plain_runs_finished = true;
};

struct TaskCheck {
    const TaskInfo* task = nullptr;
    std::vector<SizeRun> runs;
    std::vector<SanitizerRun> sanitizer;
    std::optional<Timing> timing;
    std::vector<wire::KernelRecord> launches;  // what the first traced call launched
    std::uint32_t launch_count = 0;
    bool traced = false;
    TaskEvidence evidence;
    TaskVerdict verdict;
};

struct ProgramCheck;  // check/program_check.h

struct LabCheck {
    const LabInfo* lab = nullptr;
    std::filesystem::path source;
    BuildResult build;
    GpuInfo gpu;
    std::optional<int> other_gpu_processes;  // no hpclab's, on any GPU of the machine, after the check; empty: unknown
    std::uint64_t seed = 0;
    std::vector<TaskCheck> tasks;
    Verdict overall = Verdict::pass;
    std::string sanitizer_note;       // why the sanitizer did not run, if it did not
    std::string gpu_health_note;      // what was wrong with the GPU after the runs, or why it could not be told
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0, total_s = 0;
    // A whole program's check (course/lab_kind.h, not tasks_at_sizes): what it
    // printed against hpclab's own observations, for a person to read.
    std::shared_ptr<const ProgramCheck> whole_program;
};

LabCheck check_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& options);

}  // namespace hpclab
