// Timed inputs revealed one call at a time (wire/exchange.h, kFlagParentClock).
//
// A timed call's inputs do not exist before its call starts: the parent
// sends a fresh seed as it starts the call, and the harness makes the inputs
// on the GPU from it, with the same counter-based generator the parent runs
// on the CPU to judge the outputs (course/random.h is built on these
// functions). When the call's work is done, the harness commits to its
// outputs (a keyed sum over every word) before it says "done": outputs that
// change after that moment no longer match the commitment.
//
// Plain C++17 with no dependencies beyond util/mix64.h, for host and device.
#pragma once

#include "util/mix64.h"

#include <cstdint>

namespace hpclab::wire {

// Element i of stream `stream` of a seed: key once, then bits per index.
HPCLAB_HD inline std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream)
{
    return mix64(seed ^ mix64(stream + 0x51ED2701ull));
}
HPCLAB_HD inline std::uint64_t stream_bits(std::uint64_t key, std::uint64_t i)
{
    return mix64(key + i * 0xD1B54A32D192ED03ull);
}
// Uniform integer in [lo, hi]: lo + bits % (hi - lo + 1), every 64-bit
// value where that range wraps to 0. The remainder is taken by a reciprocal
// made once per buffer (IntRange), not a 64-bit division per element (a long
// sequence of instructions on a GPU; on a CPU both take the same time, 49 ms
// for 2^25 ints on one core of the CI machine): q = floor(bits * m / 2^64)
// with m = floor((2^64 - 1) / range) is the quotient or at most two below it,
// so the remainder is exactly the one % gives. One definition for the
// harness's fills on the GPU and the parent's on the CPU.
struct IntRange {
    std::int64_t lo = 0;
    std::uint64_t range = 0;       // hi - lo + 1; 0: every 64-bit value
    std::uint64_t reciprocal = 0;  // floor((2^64 - 1) / range)
};
HPCLAB_HD inline IntRange int_range(std::int64_t lo, std::int64_t hi)
{
    const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    return {lo, range, range ? ~std::uint64_t {0} / range : 0};
}
HPCLAB_HD inline std::uint64_t high_product(std::uint64_t a, std::uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}
HPCLAB_HD inline std::int64_t stream_integer(std::uint64_t key, std::uint64_t i, const IntRange& r)
{
    const std::uint64_t bits = stream_bits(key, i);
    std::uint64_t rest = bits;
    if (r.range != 0) {
        rest = bits - high_product(bits, r.reciprocal) * r.range;
        while (rest >= r.range) rest -= r.range;
    }
    return r.lo + static_cast<std::int64_t>(rest);
}
HPCLAB_HD inline std::int64_t stream_integer(std::uint64_t key, std::uint64_t i, std::int64_t lo, std::int64_t hi)
{
    return stream_integer(key, i, int_range(lo, hi));
}
// A skewed integer fill (a histogram's hot bin): drawn uniform in
// [lo, hi + fold], every value past hi folded onto the middle of [lo, hi],
// so that about fold / (hi - lo + 1 + fold) of the elements hold that one
// value and the rest stay uniform. fold 0: the plain uniform fill.
struct FoldedRange {
    IntRange drawn;       // [lo, hi + fold]
    std::int64_t hi = 0;  // the fill's own top
    std::int64_t hot = 0; // lo + (hi - lo) / 2
};
HPCLAB_HD inline FoldedRange folded_range(std::int64_t lo, std::int64_t hi, std::uint32_t fold)
{
    return {int_range(lo, hi + static_cast<std::int64_t>(fold)), hi, lo + (hi - lo) / 2};
}
HPCLAB_HD inline std::int64_t stream_folded(std::uint64_t key, std::uint64_t i, const FoldedRange& r)
{
    const std::int64_t v = stream_integer(key, i, r.drawn);
    return v > r.hi ? r.hot : v;
}
// Uniform real in [lo, hi), rounded the same way on both sides: one
// multiplication (the power of two after it is exact) and one addition,
// never fused (a fused multiply-add rounds once, and the values would differ).
HPCLAB_HD inline double stream_real(std::uint64_t key, std::uint64_t i, double lo, double hi)
{
    const double unit = static_cast<double>(stream_bits(key, i) >> 11) * 0x1.0p-53;
#if defined(__CUDA_ARCH__)
    return __dadd_rn(lo, __dmul_rn(hi - lo, unit));
#else
    return lo + (hi - lo) * unit;
#endif
}

// One term of a commitment: word `word` at index i of output buffer `buffer`.
// Their sum (mod 2^64) over every word of every output is the commitment; a
// nonlinear term per word, keyed by the call's seed and the buffer, so that
// no shortcut (a sum of the outputs, a product's row sums) predicts it. One
// mix a word (the buffer's key is the same for all its words): the parent
// recomputes it over every word of every timed call. Index and word share
// the mixed value's bits, so past 2^32 elements two indices meet: a term
// then counts twice, never cancels one (a sum, not a difference).
HPCLAB_HD inline std::uint64_t commitment_term(std::uint64_t key, std::uint32_t buffer, std::uint64_t i,
                                               std::uint32_t word)
{
    return mix64(key ^ mix64(buffer + 0xC0117ull) ^ (i << 32) ^ word);
}

}  // namespace hpclab::wire
