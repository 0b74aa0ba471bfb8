// hpclab bench's loop: each lab's variants built, then every variant of
// every planned size measured, in rounds (bench/plan.h), every call verified.
// A benchmark, not a test: it asserts nothing about time; a row fails only
// where a variant does not compile or computes wrong results.
#pragma once

#include "bench/plan.h"
#include "bench/results.h"
#include "check/lab_run.h"

#include <functional>

namespace hpclab {

// Builds every variant of every plan (bench --build-only): true when all build.
bool build_every_variant(const BuildSite& site, const std::vector<LabPlan>& plans);

// The runs the plans make (each variant at each size, in every round).
std::size_t count_runs(const std::vector<LabPlan>& plans);

// Measures the plans on `gpu`, the rows appended to `results` lab by lab;
// `after_each_lab` sees the results so far (a long bench stopped halfway
// keeps what it measured). Progress goes to stdout and stderr.
void run_bench(const BuildSite& site, const GpuInfo& gpu, const std::vector<LabPlan>& plans, BenchResults& results,
               const std::function<void(const BenchResults&)>& after_each_lab);

}  // namespace hpclab
