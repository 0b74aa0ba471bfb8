// The CUDA environment of every program hpclab puts on the GPU (lab
// programs, sanitizer runs, the health check's canary), in one place.
//
// CUDA_DEVICE_MAX_CONNECTIONS=1: a context then opens one hardware work
// queue, not eight. Contexts are made one at a time across the machine, and
// a class's grading makes hundreds (one per program); with one queue each
// is made about three times sooner (scripts/ctx-cost.sh measures both on
// the GPU at hand). What it costs: the
// streams of one program share the queue, so their kernels do not overlap;
// no lab uses streams, and the timed calls wait for the whole device anyway
// (a kernel on a student's own stream is timed all the same).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hpclab {

// `gpu_uuid` non-empty: the program sees that GPU alone (CUDA_VISIBLE_DEVICES).
std::vector<std::pair<std::string, std::string>> cuda_env(const std::string& gpu_uuid);

}  // namespace hpclab
