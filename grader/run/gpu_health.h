// The GPU after a check: none of its programs left on it, its memory back
// to what it was before, and a canary kernel (run/canary.cu) that gives the
// right answer. A GPU that fails is taken out of service: no later check
// uses it until a person puts it back, and the check that found it gets a
// grader error (never the student's fault), to be run again: by the next
// `hpclab grade`, or on another GPU.
#pragma once

#include "run/gpu_probe.h"
#include "run/toolchain.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace hpclab {

// What the GPU looked like before the check started a program.
struct GpuBaseline {
    std::optional<GpuUsage> usage;  // nothing: NVML cannot tell
};
GpuBaseline gpu_baseline(const GpuInfo& gpu);

struct GpuHealth {
    bool healthy = true;
    std::string why;  // when not: what was wrong, in one sentence
};

// Waits a few seconds for the check's programs to leave the GPU and its
// memory to come back, then runs the canary.
GpuHealth gpu_health_after(const Toolchain& tc, const GpuInfo& gpu, const GpuBaseline& before);

// The canary's verdict: `run_canary(limit_s)` runs it once and says what
// went wrong (empty: it passed); a failure counts only if the canary fails
// again after `wait_for_quiet` (other programs may just have delayed it).
GpuHealth canary_health(const std::function<std::string(double limit_s)>& run_canary,
                        const std::function<void()>& wait_for_quiet);

// The marks of GPUs out of service live in `dir` (the state folder's gpus/),
// a file per GPU named by its UUID, holding why.
std::optional<std::string> out_of_service(const std::filesystem::path& dir, const GpuInfo& gpu);
void take_out_of_service(const std::filesystem::path& dir, const GpuInfo& gpu, const std::string& why);

}  // namespace hpclab
