// One row of `hpclab bench`: a variant of a lab task at one size, what it
// measured and what that means next to the limits. The measuring, the
// metrics, the results file and the tables all pass these along.
#pragma once

#include "course/params.h"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hpclab {

// Bad input to the benchmark (a variant file, a size, a results file): one
// clear message, and the command stops before anything is lost.
struct BenchInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class BenchStatus {
    ok,            // every call verified: the times count
    wrong,         // a call's outputs were wrong: no number
    failed,        // the run did not complete (crash, time limit, CUDA error)
    build_failed,  // the variant does not compile or link
    too_large,     // the size does not fit this GPU (or this host): not run
};

// The enum value whose name is `name` in `names` (listed in the enum's order).
template <class Enum, std::size_t N>
std::optional<Enum> enum_from_name(const std::array<std::string_view, N>& names, std::string_view name)
{
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<Enum>(i);
    return std::nullopt;
}

std::string_view status_name(BenchStatus s);
std::optional<BenchStatus> status_from_name(std::string_view name);
// wrong, failed and build_failed: the variant did not do its job.
bool is_bench_failure(BenchStatus s);

// The row of the device copy: the speed a memory-bound kernel cannot beat,
// the first row of its table. bench/<lab>/cudamemcpy.cu (kind limit) times a
// copy of the task's bytes at each size, like any variant. Where that file
// is missing (and in results written before it), the row is one 256 MiB
// copy's bandwidth scaled to the size: no timed calls (reps 0), so it says so.
inline constexpr std::string_view kCopyVariantId = "cudamemcpy";
inline constexpr std::string_view kCopyTitle = "cudaMemcpy D2D";
// What a fraction of the limit is of, for each kind of copy row.
inline constexpr std::string_view kCopyAtSizeLimit = "cudaMemcpy D2D of the same bytes at this size";
inline constexpr std::string_view kScaledCopyLimit =
    "cudaMemcpy D2D's bandwidth from one 256 MiB copy, scaled to this size (not a copy timed at this size)";

struct BenchRow {
    std::string lab, task, variant, kind, title;
    Params params;
    double bytes = 0;  // the fewest bytes the task moves (TaskSpec::work)
    double flops = 0;
    int reps = 0;      // timed calls, after the warm-up
    // Over the timed calls' GPU times; 0 when there is no number.
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double gbps = 0, gflops = 0;    // 0: not computed (no time, or no such work)
    double fraction_of_limit = 0;   // 0: no limit known
    std::string limit_name;         // what the fraction is of
    double ratio_to_library = 0;    // library time / this time; 0: no library row
    std::string library;            // the library variant of that ratio
    // How far the two ratios above may be off, from the extremes of both
    // rows' timed calls (bench/metrics.h): 0 when not computed.
    double limit_low = 0, limit_high = 0, library_low = 0, library_high = 0;
    BenchStatus status = BenchStatus::ok;
    std::string message;            // why there is no number, or how the number was made

    bool timed() const { return status == BenchStatus::ok && median_ms > 0; }
    bool is_copy() const { return variant == kCopyVariantId; }
    // A copy row from one 256 MiB copy's bandwidth, not a copy timed at this size.
    bool scaled_copy() const { return is_copy() && reps == 0; }
    // The copy of a compute-bound task's bytes does none of its flops: a
    // bandwidth (its floor in time), never a rate of flops.
    bool compute_bound() const { return flops > 0 && !is_copy(); }
};

}  // namespace hpclab
