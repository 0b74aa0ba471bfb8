// Times and throughputs as every table of hpclab shows them.
#pragma once

#include <fmt/format.h>

#include <string>

namespace hpclab {

// "12.3 us", "4.180 ms", "1.25 s"; "-" for no time.
inline std::string format_ms(double ms)
{
    if (ms <= 0) return "-";
    if (ms < 0.1) return fmt::format("{:.1f} us", ms * 1e3);
    if (ms < 1000) return fmt::format("{:.3f} ms", ms);
    return fmt::format("{:.2f} s", ms / 1e3);
}

// "9.10 TFLOP/s" when there are flops, else "1.64 TB/s" / "850.2 GB/s"; "-" for neither.
inline std::string format_rate(double bytes_per_s, double flops_per_s)
{
    if (flops_per_s > 0) return fmt::format("{:.2f} TFLOP/s", flops_per_s / 1e12);
    if (bytes_per_s <= 0) return "-";
    if (bytes_per_s >= 1e12) return fmt::format("{:.2f} TB/s", bytes_per_s / 1e12);
    return bytes_per_s >= 1e9 ? fmt::format("{:.1f} GB/s", bytes_per_s / 1e9) : fmt::format("{:.1f} MB/s", bytes_per_s / 1e6);
}

// A fraction as a percentage, "81%"; a ratio, "1.47x"; "-" for none.
inline std::string format_percent(double fraction) { return fraction > 0 ? fmt::format("{:.0f}%", fraction * 100) : "-"; }
inline std::string format_ratio(double ratio) { return ratio > 0 ? fmt::format("{:.2f}x", ratio) : "-"; }

}  // namespace hpclab
