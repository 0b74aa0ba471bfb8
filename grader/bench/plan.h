// What `hpclab bench` will run, decided before anything is built: per lab,
// the variants, the tasks, the sizes of each and how many timed calls.
// Every bad choice is a BenchInputError here, so none is found halfway
// through a long benchmark.
#pragma once

#include "bench/variants.h"
#include "course/lab_catalog.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// Size options as given: --n 1024,4096 is {"n": {1024, 4096}}.
using SizeLists = std::map<std::string, std::vector<std::int64_t>>;

struct BenchChoices {
    std::string task;                   // empty: every timed task
    std::vector<std::string> variants;  // empty: every variant
    SizeLists sizes;                    // replaces the sweep (one lab only)
    bool quick = false;                 // only the largest size of the sweep
    std::optional<int> reps;            // else the task's timing reps, at least kMinBenchReps
};

inline constexpr int kMinBenchReps = 10;
// A size's variants are timed in this many rounds, each of its share of the
// calls, the order reversed in every other one (bench/bench_run.cpp).
inline constexpr int kBenchRounds = 2;
inline constexpr int kMaxBenchReps = 63;  // with the warm-up, the most calls a run holds

struct TaskPlan {
    const TaskInfo* task = nullptr;
    std::vector<Params> sizes;
    int reps = kMinBenchReps;  // at the largest size
    bool reps_given = false;   // --reps: at every size
};

struct LabPlan {
    const LabInfo* lab = nullptr;
    std::vector<BenchVariant> variants;  // in table order; each covers at least one planned task
    std::vector<TaskPlan> tasks;
};

// The labs benchmarked when none is named: those whose lab.json gives a sweep.
std::vector<const LabInfo*> labs_with_sweeps(const Catalog& catalog);

// One task's sizes: its lab.json sweep, or its timing size alone; size
// options replace it (lists of equal length pair up, a single value goes
// with each, the other parameters keep the timing size's); quick keeps the
// largest (most elements).
std::vector<Params> bench_sweep(const TaskInfo& task, const SizeLists& sizes, bool quick);
int bench_reps(const TaskInfo& task, std::optional<int> given);
// The timed calls at one size of the plan: its reps at the largest size; a
// smaller size, whose calls are short and vary more by proportion (a launch,
// a clock's tick), gets as many times more as it has fewer elements, at
// most kMaxBenchReps, so that its ratios rest on enough calls. --reps holds
// at every size.
int bench_calls(const TaskPlan& plan, const Params& size);

// Checks the choices against the labs and finds the variants in
// <variants_dir>/<lab>/ (files named relative to `root` in messages).
std::vector<LabPlan> plan_bench(const std::vector<const LabInfo*>& labs, const BenchChoices& choices,
                                const std::filesystem::path& variants_dir, const std::filesystem::path& root);

}  // namespace hpclab
