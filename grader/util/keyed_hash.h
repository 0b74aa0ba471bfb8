// A keyed 64-bit hash of a byte range: the parent hashes each input before
// the run with a key the child never sees, and again after; a change means
// the student's code wrote into an input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace hpclab {

std::uint64_t keyed_hash(std::span<const std::byte> bytes, std::uint64_t key);

}  // namespace hpclab
