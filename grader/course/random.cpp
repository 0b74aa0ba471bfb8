#include "course/random.h"

#include <random>

#include "util/parallel.h"

namespace hpclab {

void fill_uniform(std::span<int> out, const RandomStream& rs, std::int64_t lo, std::int64_t hi, std::uint32_t fold)
{
    const wire::FoldedRange range = wire::folded_range(lo, hi, fold);  // the values of rs.folded, by a reciprocal
    parallel_for(out.size(), [&](std::uint64_t b, std::uint64_t e) {
        for (std::uint64_t i = b; i < e; ++i) out[i] = static_cast<int>(rs.folded(i, range));
    });
}

void fill_uniform(std::span<float> out, const RandomStream& rs, double lo, double hi)
{
    parallel_for(out.size(), [&](std::uint64_t b, std::uint64_t e) {
        for (std::uint64_t i = b; i < e; ++i) out[i] = static_cast<float>(rs.real(i, lo, hi));
    });
}

std::uint64_t fresh_seed()
{
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace hpclab
