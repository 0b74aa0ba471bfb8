// The GPU after a check: none of its programs left on it, its memory back
// to what it was before, and a canary kernel (run/canary.cu) that gives the
// right answer wherever something may have hurt the GPU: the driver reported
// an error on it meanwhile (an Xid), a program had to be stopped, or nothing
// can tell. A GPU that fails is taken out of service: no later check
// uses it until a person puts it back, and the check that found it gets a
// grader error (never the student's fault), to be run again: by the next
// `hpclab grade`, or on another GPU.
#pragma once

#include "gpu/gpu_probe.h"
#include "gpu/gpu_turns.h"
#include "run/toolchain.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace hpclab {

// What the GPU looked like before the check started a program.
struct GpuBaseline {
    std::optional<GpuUsage> usage;  // nothing: NVML cannot tell
    // The driver's errors since (null: none watched, the canary decides),
    // and how many programs had been stopped before (programs_stopped()).
    std::shared_ptr<GpuErrorWatch> errors;
    std::uint64_t stopped_before = 0;
};
GpuBaseline gpu_baseline(const GpuInfo& gpu);

struct GpuHealth {
    bool healthy = true;
    std::string why;  // when not: what was wrong, in one sentence
    std::string canary_because;  // why the canary ran; empty: it did not
};

// Why the canary must run, from the driver's errors since the baseline
// (GpuErrorWatch::reported: nothing when it cannot tell) and the programs
// stopped since; empty when neither the driver nor hpclab saw anything that
// could have hurt the GPU. A CUDA context dies with its process: what a
// program that ended by itself did to the GPU, the driver reports. The
// faults a program makes in its own context (Xid 13, 31, 43: an illegal
// instruction or address, the context's channel stopped) need a restart of
// the program, not of the GPU (NVIDIA's Xid catalog): they alone do not
// call for the canary.
std::string reason_for_canary(const std::optional<GpuErrors>& driver_errors, std::uint64_t programs_stopped_since);

// Waits a few seconds for the check's programs to leave the GPU and its
// memory to come back, then runs the canary where reason_for_canary says,
// in a shared turn of `turns` (a program on the GPU, as any other).
GpuHealth gpu_health_after(const Toolchain& tc, const GpuInfo& gpu, const GpuBaseline& before,
                           GpuTurns* turns = nullptr);

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
