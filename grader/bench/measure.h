// One benchmark run: what `hpclab bench` asks of the runner, and the row
// that the runner's report becomes. Every call is verified by the task's
// spec: a variant with wrong outputs gets no number, never a silent one.
#pragma once

#include "bench/row.h"
#include "bench/variants.h"
#include "run/task_runner.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hpclab {

struct BenchCall {
    const LabInfo* lab = nullptr;
    const TaskInfo* task = nullptr;
    const TaskSpec* spec = nullptr;
    Params params;
    int reps = 10;
    std::uint64_t seed = 0;  // the same for every variant at one size: the same inputs
};

// The timed recipe (run/run_recipe.h), as `hpclab check` times: a warm-up
// call then `reps` timed ones, cycling through input sets, a cold L2, every
// call's outputs checked (not the limit's: a copy's outputs are not the
// task's); `measure_copy` times a 256 MiB device copy afterwards.
RunRequest bench_request(const BenchCall& call, const BenchVariant& variant, const std::filesystem::path& program,
                         bool measure_copy, std::uint64_t gpu_memory_bytes);

// The row of `variant` before it runs: who, at which size, the work.
BenchRow bench_row(const BenchCall& call, const BenchVariant& variant);
// The row with the run's times, or with why there are none.
BenchRow measured_row(BenchRow row, const RunReport& report);
// The row of the device copy for the group of `any` (same lab, task, size),
// where no copy was timed at that size: one 256 MiB copy's bandwidth
// scaled to its bytes (reps 0: no timed call of its own).
BenchRow copy_row(const BenchRow& any, double copy_gb_per_s);

// Host memory one run takes: the exchange holds every call's buffers at once.
std::uint64_t exchange_bytes(const TaskSpec& spec, const Params& params, std::uint32_t ncalls);
// This machine's memory in bytes (0: unknown).
std::uint64_t host_memory_bytes();

}  // namespace hpclab
