#include "bench/row.h"

#include <array>

namespace hpclab {

namespace {
constexpr std::array<std::string_view, 5> kStatusNames = {"ok", "wrong", "failed", "build_failed", "too_large"};
}  // namespace

std::string_view status_name(BenchStatus s) { return kStatusNames[static_cast<std::size_t>(s)]; }

std::optional<BenchStatus> status_from_name(std::string_view name)
{
    return enum_from_name<BenchStatus>(kStatusNames, name);
}

bool is_bench_failure(BenchStatus s)
{
    return s == BenchStatus::wrong || s == BenchStatus::failed || s == BenchStatus::build_failed;
}

}  // namespace hpclab
