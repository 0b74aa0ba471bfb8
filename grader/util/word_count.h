// Counting one 32-bit word over a large buffer: the parent's scan of every
// output word of every call for the poison.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hpclab {

// How many of the 32-bit words at byte offsets 4*from .. 4*to of `base`
// equal `word` (in the machine's byte order; `base` need not be aligned).
std::uint64_t count_word(const std::byte* base, std::uint64_t from, std::uint64_t to, std::uint32_t word);

}  // namespace hpclab
