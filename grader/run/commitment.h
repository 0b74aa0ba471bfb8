// The parent's side of a timed call's commitment (wire/reveal.h): the sum of
// the terms of a run of one output's words, as the harness made it on the GPU.
#pragma once

#include <cstdint>

namespace hpclab {

// Sum (mod 2^64) of wire::commitment_term(key, buffer, i, words[i]) for i in [from, to).
std::uint64_t commitment_part(const std::uint32_t* words, std::uint64_t from, std::uint64_t to, std::uint64_t key,
                              std::uint32_t buffer);

}  // namespace hpclab
