// Launch shapes as rules of the size (item 6 of the invariants' issue):
// - a grid-stride task's grid against the GPU it ran on (lab.json's
//   "max_blocks_per_sm"): the lesson's grid fills the GPU once, a few blocks
//   per multiprocessor, and each thread loops over the data; a grid that
//   grows with n (one block per 1024 elements) is the classic mistake it
//   catches. The multiprocessors are counted by hpclab (gpu/gpu_probe.h), not
//   by the student's program; the grid is the CUPTI record of each size's
//   first call;
// - one thread per element (lab.json's "one_thread_per", an upper bound),
//   for every launch of every call of every size.
#pragma once

#include "check/lab_check.h"

#include <optional>
#include <vector>

namespace hpclab {

// The first size whose call launched more blocks than `max_blocks_per_sm`
// times `sm_count` in one launch, as a wrong_launch finding. Nothing when
// the task sets no bound or the GPU's multiprocessors are unknown (0).
std::optional<Finding> finding_of_grid(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count);

// The first launch of any call with more threads than one per element of
// the size needs, plus a spare block in each dimension
// (LaunchExpectation::one_thread_per), and more blocks than the GPU runs at
// once, as a wrong_launch finding. Nothing when the task sets no such rule.
std::optional<Finding> finding_of_thread_count(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count);

}  // namespace hpclab
