// `hpclab check`: judges every graded task of a lab. It builds the
// student's file (and the reference, for the speed baseline), runs every
// size in a fresh process, reads the CUPTI records of what the code
// launched, runs compute-sanitizer on small sizes, times the task against
// its baseline in the same run, and turns all of that into one verdict per
// task (verdict.h). The student's process decides nothing.
#pragma once

#include "run/gpu_probe.h"
#include "course/lab_catalog.h"
#include "run/sanitizer.h"
#include "run/task_runner.h"
#include "run/toolchain.h"
#include "course/verdict.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct CheckOptions {
    std::filesystem::path source;   // the file to judge
    std::string variant = "student";  // its name in the build cache
    std::string only_task;          // empty: every task
    std::optional<std::uint64_t> seed;
    bool sanitizer = true;
    bool timing = true;
    bool big = false;               // also the sizes past 2^31 bytes
    int parallel_runs = 4;          // correctness runs at once (the GPU shares well; timing runs alone)
    std::function<void(const std::string&)> progress;  // a line as each step ends
};

// One fresh process of the lab program.
struct SizeRun {
    SizeCase size;
    RunReport report;
};

struct SanitizerRun {
    std::string tool;  // memcheck, racecheck
    SizeCase size;
    RunReport report;
    SanitizerReport findings;
};

// The task's speed against its baseline, from timed runs in this check.
struct Timing {
    std::string baseline;             // "reference" or "reference <task>"
    Params size;
    std::vector<double> student_ms, baseline_ms;  // every timed call
    double ratio = 0;                 // median(baseline) / median(student): the speedup
    double ratio_low = 0, ratio_high = 0;  // from the quartiles: the ratio's spread
    double threshold = 0;
    double floor_ms = 0;              // the fewest bytes at the copy bandwidth: nothing is faster
    double copy_gbps = 0;
    bool unreliable = false;          // another process used the GPU meanwhile
    std::string note;
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

struct LabCheck {
    const LabInfo* lab = nullptr;
    std::filesystem::path source;
    BuildResult build;
    GpuInfo gpu;
    int other_gpu_processes = 0;
    std::uint64_t seed = 0;
    std::vector<TaskCheck> tasks;
    Verdict overall = Verdict::pass;
    std::string sanitizer_note;       // why the sanitizer did not run, if it did not
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0, total_s = 0;
};

LabCheck check_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& options);

// The sizes compute-sanitizer runs a task at: small ones (the tool is slow),
// one of them not a multiple of a block or tile. racecheck gets one.
std::vector<SizeCase> sanitizer_sizes(const TaskSpec& spec, const TaskInfo& task, std::size_t at_most);

// The findings of one run (a status, and each call's checks and trace).
std::vector<Finding> findings_of_run(const LabInfo& lab, const TaskInfo& task, const SizeCase& size,
                                     const RunReport& report);
// What the CUPTI record of one call says about the lesson's launch rules.
std::vector<Finding> findings_of_trace(const TaskInfo& task, const Params& params, const wire::CallTrace& trace);
// The verdict a speed measurement gives (pass when fast enough).
Finding finding_of_timing(const Timing& t);

// A kernel record for people: "add<<<(977,1,1), (1024,1,1)>>>, 0.071 ms, 4096 B shared".
std::string describe_launch(const wire::KernelRecord& k);
std::string demangle(const std::string& name);

}  // namespace hpclab
