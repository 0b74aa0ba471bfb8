// Input generation from a seed.
//
// Counter-based: element i of a stream depends only on (seed, stream, i), so
// large inputs are filled by several threads and still come out the same for
// a given seed, whatever the number of threads; and the harness makes a
// timed call's inputs on the GPU from the same functions (wire/reveal.h).
#pragma once

#include "util/mix64.h"
#include "wire/reveal.h"

#include <cstdint>
#include <span>

namespace hpclab {


class RandomStream {
public:
    RandomStream(std::uint64_t seed, std::uint64_t stream) : key_(wire::stream_key(seed, stream)) {}

    std::uint64_t bits(std::uint64_t i) const { return wire::stream_bits(key_, i); }
    // Uniform integer in [lo, hi].
    std::int64_t integer(std::uint64_t i, std::int64_t lo, std::int64_t hi) const
    {
        return wire::stream_integer(key_, i, lo, hi);
    }
    std::int64_t integer(std::uint64_t i, const wire::IntRange& range) const
    {
        return wire::stream_integer(key_, i, range);
    }
    std::int64_t folded(std::uint64_t i, const wire::FoldedRange& range) const
    {
        return wire::stream_folded(key_, i, range);
    }
    // Uniform float in [lo, hi).
    double real(std::uint64_t i, double lo, double hi) const { return wire::stream_real(key_, i, lo, hi); }

private:
    std::uint64_t key_;
};

// Fill with uniform ints in [lo, hi] / floats in [lo, hi), in parallel.
// A fresh seed from the operating system's entropy.
std::uint64_t fresh_seed();

// An int fill with `fold` > 0 is skewed: wire::stream_folded.
void fill_uniform(std::span<int> out, const RandomStream& rs, std::int64_t lo, std::int64_t hi, std::uint32_t fold = 0);
void fill_uniform(std::span<float> out, const RandomStream& rs, double lo, double hi);

}  // namespace hpclab
