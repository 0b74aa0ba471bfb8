// Grading a class's files on one machine: every file compiled first, in
// parallel on the CPU cores (builds are cached by content, so the checks
// find them done), then checked on the GPU a wave at a time: the checks of
// a wave share the GPU for their correctness runs and take it alone for
// their timing (check/gpu_turns.h); after each wave the GPU must be clean
// (run/gpu_health.h) or the wave's results are grader errors, graded again
// on a later run, and the GPU is not used again. Each result is written as
// soon as its wave's GPU is found clean (grade_folder.h): a run killed at
// any point loses only the wave under way.
#pragma once

#include "grade/class_folder.h"
#include "grade/grade_folder.h"
#include "run/gpu_probe.h"
#include "run/toolchain.h"

#include <functional>
#include <string>
#include <vector>

namespace hpclab {

struct GradeJob {
    std::string student;
    std::filesystem::path folder;  // the student's
    const Submission* submission = nullptr;
    std::uint64_t seed = 0;
};

struct ClassProgress {
    enum class Phase { compiling, checking } phase = Phase::compiling;
    int done = 0, total = 0;
    double elapsed_s = 0;
    std::string last;  // "ada vecadd3: pass"
};

struct ClassRunOptions {
    int compile_jobs = 1;      // compiles at once
    int checks_per_wave = 2;   // checks sharing the GPU at once
    bool sanitizer = true, timing = true;
    std::filesystem::path gpu_service_dir;  // GPUs out of service (gpu_health.h)
    std::function<void(const ClassProgress&)> on_progress;  // called from one thread at a time
};

struct ClassRunTotals {
    int checked = 0;
    int unsaved = 0;                     // results that could not be written (named on stderr)
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0;  // summed over the checks
    double compile_wall_s = 0, check_wall_s = 0;
};

ClassRunTotals grade_jobs(const Toolchain& tc, const GpuInfo& gpu, const std::vector<GradeJob>& jobs,
                          const GradeFolder& folder, const ClassRunOptions& options);

}  // namespace hpclab
