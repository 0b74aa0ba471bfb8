// A minimal parallel loop for the parent's large fills and comparisons.
#pragma once

#include <cstdint>
#include <functional>

namespace hpclab {

// Calls body(begin, end) on disjoint ranges covering [0, count), on up to
// hardware_concurrency() threads, each with at least `grain` items; a
// count below two grains runs on the calling thread.
void parallel_for(std::uint64_t count, const std::function<void(std::uint64_t, std::uint64_t)>& body,
                  std::uint64_t grain = 1u << 18);

}  // namespace hpclab
