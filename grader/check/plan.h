// Which runs a check makes, before any runs: every size of every task in a
// fresh process, and compute-sanitizer's runs at small sizes, in the order
// that finds a hang soonest.
#pragma once

#include "course/input_ends.h"
#include "course/lab_catalog.h"
#include "course/task_spec.h"

#include <cstddef>
#include <optional>
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
    int again = 0;         // > 0: the same size run again, later in the program (its own inputs)
    // Not none: the inputs sorted or at their range's ends (the invariant range_ends).
    InputEnds ends = InputEnds::none;

    bool sanitizer() const { return !tool.empty(); }
};

// Every task at every size (the big ones only when `big`, and of those only
// the ones whose device buffers fit 9/10 of `gpu_memory_bytes` when it is
// known: the same bound a run refuses past, run/task_runner.cpp), and, when
// `sanitizer`, memcheck at two small sizes and racecheck at one for
// shared-memory tasks. Ordered: the correctness runs first, each task's in
// the order of plain_size_order (they run in one program: the invariant
// no_state) and then on inputs at their range's ends (range_ends_runs),
// then the sanitizer's (slow), then the big sizes.
std::vector<PlannedRun> plan_runs(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks, bool big,
                                  bool sanitizer, std::uint64_t gpu_memory_bytes = 0, std::uint64_t order_seed = 0,
                                  int sm_count = 0);

// Every loop trip under the sanitizer (item 3 of the invariants' issue): a
// size where every thread of any grid the GPU holds at once (`sm_count`
// multiprocessors of at most 2048 threads) loops at least twice over the
// data, the last trip partial: 2 x 2048 x sm_count + 7 of the lab's length,
// its one size parameter or, beside others, the one named n (histogram's,
// beside bins and hot: those as the task's first sanitizer size has them).
// A grid-stride loop over a grid sized to the GPU (which no listed size of a
// few elements reaches past its first trip) runs its second trip under
// memcheck there. Nothing when the lab has no such length (rotation's width
// and height, matmul's tiles loop twice at its listed sizes), the GPU is
// unknown, the size is past the parameter's maximum, or its buffers pass
// kTripRunBytes.
std::optional<SizeCase> trip_size(const LabInfo& lab, const TaskSpec& spec, const TaskInfo& task, int sm_count);

// Bytes up to which memcheck runs the trip size: a few times the GPUs' resident threads' ints.
inline constexpr std::uint64_t kTripRunBytes = 64u << 20;

// The invariant no_state (course/invariants.h): the order a task's plain
// sizes run in, in its one program, as indices into `bytes` (each size's
// bytes): each once, in an order drawn from `seed` whose first size is never
// the largest, then the smallest again, on inputs of its own. So, from two
// sizes on, a larger size always runs after a smaller one (a buffer sized by
// the first call is too small for it) and a smaller after a larger (a
// result or a total kept from the last call is wrong for it), and the
// program cannot know which size comes first.
std::vector<std::size_t> plain_size_order(const std::vector<std::uint64_t>& bytes, std::uint64_t seed);

// Whether a size's device buffers fit a GPU of `gpu_memory_bytes` (0: unknown, taken to fit).
bool fits_gpu(const TaskSpec& spec, const Params& params, std::uint64_t gpu_memory_bytes);

// The sizes compute-sanitizer runs a task at: small ones, one of them not
// a multiple of a block or tile.
std::vector<SizeCase> sanitizer_sizes(const TaskSpec& spec, const TaskInfo& task, std::size_t at_most);

// The invariant range_ends: at the first small size the sanitizer runs
// (one not a multiple of a block or tile where there is one: a partial
// block is where an end is mishandled), one run on each shape of
// every_input_end(), where every input of the task is made from a fill.
// Nothing when the task opts out. (With two sizes, the runs of a correct
// file's check took 0.1 to 0.4 s more on the H200 than the day's earlier
// checks without them: docs/results/check-times-h200.txt.)
std::vector<PlannedRun> range_ends_runs(const TaskSpec& spec, const TaskInfo& task, std::size_t index);

// Bytes of every buffer of one call at this size.
std::uint64_t total_bytes(const TaskSpec& spec, const Params& params);

// What plain_size_order says of the size it runs again.
inline constexpr const char* kAgainWhy =
    "again, after the task's other sizes, on fresh inputs: what a call keeps for the next shows here";

}  // namespace hpclab
