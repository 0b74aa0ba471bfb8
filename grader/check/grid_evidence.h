// Launch shapes as rules of the size (item 6 of the invariants' issue):
// - the lesson facts observed in every launch (check/lesson_facts.h: a
//   grid-stride task's grid against the GPU it ran on, grid_fills_gpu_once;
//   a grid that grows with n is the classic mistake it catches). The
//   multiprocessors are counted by hpclab (gpu/gpu_probe.h), not by the
//   student's program;
// - one thread per element (lab.json's "one_thread_per", an upper bound),
//   for every launch of every call of every size.
#pragma once

#include "check/lab_check.h"

#include <optional>
#include <vector>

namespace hpclab {

// The first launch of any traced call whose size asks a lesson fact
// observed in launches (ObservedIn::launches) that it does not show, as a
// wrong_launch finding.
std::optional<Finding> finding_of_launch_facts(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count);

// The first launch of any call with more threads than one per element of
// the size needs, plus a spare block in each dimension
// (LaunchExpectation::one_thread_per), and more blocks than the GPU runs at
// once, as a wrong_launch finding. Nothing when the task sets no such rule.
std::optional<Finding> finding_of_thread_count(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count);

}  // namespace hpclab
