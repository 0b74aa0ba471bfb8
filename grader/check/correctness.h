// The check's correctness and sanitizer runs: every planned run in a fresh
// process, several at once (the GPU shares well; timed runs come later,
// alone). A task whose run hit the time limit is not run again: its other
// sizes would only wait out the same limit. What a program could not finish
// runs again in a program per task, then alone until the task's first
// failing size: its verdict is known there.
#pragma once

#include "gpu/gpu_turns.h"
#include "check/plan.h"
#include "gpu/gpu_probe.h"
#include "run/task_runner.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct CorrectnessRuns {
    const LabInfo* lab = nullptr;
    std::vector<const TaskInfo*> tasks;
    std::filesystem::path program;
    std::uint64_t seed = 0;   // the check's: each run's derives from it, the task and the size
    const GpuInfo* gpu = nullptr;
    std::optional<std::filesystem::path> sanitizer;  // compute-sanitizer, for the plan's sanitizer runs
    int parallel = 4;
    ProgramFacts facts;  // of `program`: its runs' claims are checked against it
    // Shared with other checks on this GPU: each run takes a shared turn for
    // its process's life, so a timed phase waits only for the runs under way.
    GpuTurns* turns = nullptr;
    // A command each plain run's program runs under (the CPU tests' stand-in
    // lab program, tests/standin); empty in a check.
    std::vector<std::string> wrapper;
    double hang_after_s = 0;  // > 0: a plain size's cut (CheckOptions::hang_after_s), if below the lab's
    // Called once each, from a worker or a program's output reader (or, at
    // the latest, before run_correctness returns). once_inputs_made: the
    // first jobs have made their runs' inputs; the check hands its timed
    // runs their program then (their inputs were made while the file
    // compiled: made after it, beside these, the two held each other up,
    // and the first runs started over half a second late). once_under_way:
    // and each plain job's program has its GPU; the check starts its timed
    // programs then (started beside the runs' program, their CUDA contexts
    // held up its own: contexts are made one at a time, and the runs come
    // first: the timing waits for them).
    std::function<void()> once_inputs_made;
    std::function<void()> once_under_way;
};

// The inputs of each job's first program, made before the program exists
// (runs.program and runs.facts unused): a check makes them while the
// student's file compiles (on an H200, aos_soa's 20 plain runs took 0.32 s
// to make after the compile, before their program could start:
// docs/results/check-times-h200.txt). None for a job of one run.
using InputsAhead = std::vector<std::shared_ptr<MadeInputs>>;
InputsAhead make_inputs_ahead(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan);

// Reports in the plan's order; empty where a run was skipped or cancelled.
// `ahead`: make_inputs_ahead's for the same plan, or none. A plain run whose
// finding the GPU's other work could have made (evidence.h, bent_by_load)
// is made once more with the GPU alone, and that report stands.
std::vector<std::optional<RunReport>> run_correctness(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan,
                                                      InputsAhead ahead = {});

}  // namespace hpclab
