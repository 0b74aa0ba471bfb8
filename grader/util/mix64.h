// SplitMix64's finaliser: the bit mixer under the keyed hash, the random
// streams and every derived seed.
#pragma once

#include <cstdint>

// Host and device: the harness makes timed inputs on the GPU with it.
#if defined(__CUDACC__)
#define HPCLAB_HD __host__ __device__
#else
#define HPCLAB_HD
#endif

namespace hpclab {

// A good 64-bit mix of a 64-bit value.
HPCLAB_HD constexpr std::uint64_t mix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace hpclab
