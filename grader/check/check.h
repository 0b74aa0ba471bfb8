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
#include "check/lab_check.h"
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

// Not valid where check_lab builds the file itself: the baseline (built once,
// with the timing's).
std::shared_future<StartedBuild> start_student_build(const Toolchain& tc, const LabInfo& lab,
                                                     const std::filesystem::path& source);

LabCheck check_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& options);

}  // namespace hpclab
