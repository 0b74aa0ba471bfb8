// hpclab's own measurement of a program lab's kernel (run/kernel_timer.cu,
// built from the lab's kernel header, never from the student's file), on
// the GPU the student's program runs on: what the times that program
// prints are held to (check/program_judge.h).
#pragma once

#include "course/lab_catalog.h"
#include "gpu/gpu_probe.h"
#include "run/toolchain.h"

#include <optional>
#include <string>

namespace hpclab {

// Medians over the timing program's launches, in seconds.
struct KernelTimes {
    double events_s = 0;  // the kernel on the GPU's clock: the time the printed ones are held to
    double sync_s = 0;    // hpc_gettime() around the launch and cudaDeviceSynchronize()
    double launch_s = 0;  // hpc_gettime() around the launch alone
};

struct KernelTiming {
    std::optional<KernelTimes> times;
    std::string why_not;  // hpclab's own failure (a build, a run): never the student's
};

// The timing program of `lab`, built once per toolchain and kernel header
// (before the GPU is taken: a build holds no GPU turn); nothing, with
// `why`, when it does not build.
std::optional<std::filesystem::path> build_kernel_timer(const Toolchain& tc, const LabInfo& lab, std::string& why);

// Runs it on `gpu`. The caller holds the GPU alone meanwhile (gpu/gpu_turns.h).
KernelTiming measure_lab_kernel(const std::filesystem::path& timer, const LabInfo& lab, const GpuInfo& gpu);

}  // namespace hpclab
