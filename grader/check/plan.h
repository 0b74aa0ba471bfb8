// Which runs a check makes, before any runs: every size of every task in a
// fresh process, and compute-sanitizer's runs at small sizes, in the order
// that finds a hang soonest.
#pragma once

#include "course/lab_catalog.h"
#include "course/task_spec.h"

#include <cstddef>
#include <string>
#include <vector>

namespace hpclab {

// Bytes up to which a size counts as small: the sanitizer's tools run far
// slower than the GPU, and small runs come first.
inline constexpr std::uint64_t kSmallRunBytes = 1u << 20;

struct PlannedRun {
    std::size_t task = 0;  // index into the checked tasks
    SizeCase size;
    std::string tool;      // empty: a correctness run; else memcheck or racecheck

    bool sanitizer() const { return !tool.empty(); }
};

// Every task at every size (the big ones only when `big`, and of those only
// the ones whose device buffers fit 9/10 of `gpu_memory_bytes` when it is
// known: the same bound a run refuses past, run/task_runner.cpp), and, when
// `sanitizer`, memcheck at two small sizes and racecheck at one for
// shared-memory tasks. Ordered: the small correctness runs first (a hang
// shows there within the lab's time limit and cancels the task's other
// runs), then the sanitizer's (slow), then the large correctness runs.
std::vector<PlannedRun> plan_runs(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks, bool big,
                                  bool sanitizer, std::uint64_t gpu_memory_bytes = 0);

// Whether a size's device buffers fit a GPU of `gpu_memory_bytes` (0: unknown, taken to fit).
bool fits_gpu(const TaskSpec& spec, const Params& params, std::uint64_t gpu_memory_bytes);

// The sizes compute-sanitizer runs a task at: small ones, one of them not
// a multiple of a block or tile.
std::vector<SizeCase> sanitizer_sizes(const TaskSpec& spec, const TaskInfo& task, std::size_t at_most);

// Bytes of every buffer of one call at this size.
std::uint64_t total_bytes(const TaskSpec& spec, const Params& params);

}  // namespace hpclab
