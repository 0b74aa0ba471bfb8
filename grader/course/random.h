// Input generation from a seed.
//
// Counter-based: element i of a stream depends only on (seed, stream, i), so
// large inputs are filled by several threads and still come out the same for
// a given seed, whatever the number of threads.
#pragma once

#include "util/mix64.h"

#include <cstdint>
#include <span>

namespace hpclab {


class RandomStream {
public:
    RandomStream(std::uint64_t seed, std::uint64_t stream) : key_(mix64(seed ^ mix64(stream + 0x51ED2701ull))) {}

    std::uint64_t bits(std::uint64_t i) const { return mix64(key_ + i * 0xD1B54A32D192ED03ull); }
    // Uniform integer in [lo, hi].
    std::int64_t integer(std::uint64_t i, std::int64_t lo, std::int64_t hi) const
    {
        const auto range = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(range == 0 ? bits(i) : bits(i) % range);
    }
    // Uniform float in [lo, hi).
    double real(std::uint64_t i, double lo, double hi) const
    {
        return lo + (hi - lo) * static_cast<double>(bits(i) >> 11) * 0x1.0p-53;
    }

private:
    std::uint64_t key_;
};

// Fill with uniform ints in [lo, hi] / floats in [lo, hi), in parallel.
void fill_uniform(std::span<int> out, const RandomStream& rs, std::int64_t lo, std::int64_t hi);
void fill_uniform(std::span<float> out, const RandomStream& rs, double lo, double hi);

}  // namespace hpclab
