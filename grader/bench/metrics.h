// What a benchmark row's time means: its throughput, the fraction of the
// limit this GPU allows, and its ratio to the library at the same task and
// size. Computed from the rows alone, so that a results file read back
// gives the same figures.
#pragma once

#include "bench/row.h"

#include <string_view>
#include <vector>

namespace hpclab {

// The grading model's cuBLAS SGEMM (fp32, 4096^3) on an H100, in GFLOP/s: the
// limit of a compute-bound task when no library variant ran in the bench.
inline constexpr double kModelSgemmGflops = 51500;

// Throughput of every timed row (GB/s from the bytes, GFLOP/s from the
// flops), then, per group of rows of one lab, task and size:
// - fraction of the limit: a memory-bound task (no flops) against the
//   copy row's GB/s at the same size (BenchRow::is_copy: timed at that
//   size, or scaled from one copy); a compute-bound one against the fastest library
//   variant's GFLOP/s at its size, else the fastest library rate anywhere in
//   the rows (cuBLAS's SGEMM at matmul's largest size, measured on this GPU),
//   else (on an H100, a bench of labs without a library) the grading model's
//   SGEMM figure;
// - ratio to the library: the library's time over the row's (above 1:
//   faster than the library), the library being the fastest library
//   variant, else the device copy for a memory-bound task.
// Each ratio comes with its spread (BenchRow's *_low, *_high): the slowest
// against the fastest call of the two rows, and the other way round.
void compute_metrics(std::vector<BenchRow>& rows, std::string_view gpu_name);

// A ratio of two rows' times (`base` over `row`: above 1, `row` is faster),
// and how far it may be off: base's fastest call over row's slowest, base's
// slowest over row's fastest. When that range holds 1 the two cannot be
// told apart: within the noise.
struct TimeRatio {
    double value = 0, low = 0, high = 0;
    bool within_noise() const { return low <= 1 && 1 <= high; }
};
TimeRatio time_ratio(const BenchRow& base, const BenchRow& row);

// The name the grading model's figure goes by in limit_name.
inline constexpr std::string_view kModelSgemmLimit = "cuBLAS SGEMM fp32 on an H100, 51.5 TFLOP/s (from the grading model)";

}  // namespace hpclab
