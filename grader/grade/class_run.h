// Grading a class's files on one GPU: every file compiled in parallel on
// the CPU cores (builds are cached by content, so the checks find them
// done), and checked as soon as it is compiled, a bounded set of checks at
// once sharing the GPU for their correctness runs and taking it alone for
// their timing (gpu/gpu_turns.h). The checks go in waves; after each wave
// the GPU must be clean (run/gpu_health.h); if not, it is taken out of
// service, the wave's files are saved as grader errors and the grading
// stops there (the files not checked yet wait for the next run). Several
// GPUs of one machine are one such grading per GPU, each its own process
// (grade/class_chunks.h), as a Slurm array's chunks are.
// Inside a wave the checks start longest expected first (by their lab's
// planned runs and timed tasks), and the files compile in that order.
// Each result is written the moment its check ends, not yet covered
// (lab_result.h), and marked covered as soon as its wave's GPU is found
// clean. A run killed at any point loses only the checks under way: the
// next run covers the results left uncovered with a health check of the
// GPU before it checks anything, or grades them again if it fails.
#pragma once

#include "check/check.h"
#include "intake/class_folder.h"
#include "grade/grade_folder.h"
#include "run/gpu_health.h"
#include "gpu/gpu_probe.h"
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

// The steps a grading takes, replaceable (the CPU tests stand in for the
// compiler and the GPUs); empty: the real ones.
struct ClassSteps {
    std::function<bool(const GradeJob&)> build;  // true: it compiled
    std::function<LabCheck(const GradeJob&, const GpuInfo&, GpuTurns*)> check;
    std::function<GpuBaseline(const GpuInfo&)> baseline;
    std::function<GpuHealth(const GpuInfo&, const GpuBaseline&)> health;
    std::function<nlohmann::json(const LabCheck&)> record;
};

// `hpclab grade --checks-at-once`'s default (ClassRunOptions::checks_at_once).
inline constexpr int kDefaultChecksAtOnce = 8;

struct ClassRunOptions {
    int compile_jobs = 1;      // compiles at once
    // Checks sharing the GPU at once, a new one starting as one ends: a check
    // spends most of its time waiting for its programs' CUDA contexts, which
    // the others use meanwhile (the driver makes them one at a time).
    int checks_at_once = kDefaultChecksAtOnce;
    // A wave: the checks between two checks of the GPU's health (a canary
    // program, and nothing of the grading left on the GPU), which needs the
    // GPU quiet: the wave's last checks end before the next wave's first
    // begin, so each wave's tail leaves slots idle (its checks start longest
    // expected first, which keeps that tail short). 0: sixteen times the
    // checks at once: few barriers (a simulation from an H100's measured
    // checks of 40 students x 9 labs: 531 s with waves of 48 in job order,
    // 480 s with waves of 128 longest first, 474 s with none). The price:
    // a GPU found broken voids its whole wave (graded again on the next
    // run), more files at once, but that is rare.
    int checks_per_wave = 0;
    bool sanitizer = true, timing = true;
    bool big = false;  // the big sizes too, where the GPU's memory holds them (check/plan.h)
    std::filesystem::path gpu_service_dir;  // GPUs out of service (gpu_health.h)
    std::function<void(const ClassProgress&)> on_progress;  // called from one thread at a time
    ClassSteps steps;
};

struct ClassRunTotals {
    int checked = 0;
    int covered_leftovers = 0;           // results of a killed run, covered by this run's first health check
    int redone_leftovers = 0;            // the same, graded again (a GPU failed that check, or none could make it)
    int unsaved = 0;                     // results that could not be written (named on stderr)
    std::string out_of_service;          // the GPU taken out during the run, with why; empty: none
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0;  // summed over the checks
    double compile_wall_s = 0, check_wall_s = 0;  // both from the start: they overlap
    double health_wall_s = 0;  // the GPU's checks after each wave
    int waves = 0;
    GpuTurns::Split gpu;  // where the GPU's wall time went during the checks
};

// `gpu`: not present, the checks say not_run, as hpclab check does without
// a GPU. `uncovered`: files whose results an earlier run wrote and no
// health check covered yet (pending_jobs, class_grading.h).
ClassRunTotals grade_jobs(const Toolchain& tc, const GpuInfo& gpu, const std::vector<GradeJob>& jobs,
                          const GradeFolder& folder, const ClassRunOptions& options,
                          const std::vector<GradeJob>& uncovered = {});

}  // namespace hpclab
