// What a student wrote, as fingerprints: the skeleton everyone started from
// subtracted the way MOSS subtracts a base file (a fingerprint of the file
// that is a k-gram of the skeleton is not theirs), so that two files are
// alike only by what was written at the TODOs.
#pragma once

#include "similarity/fingerprints.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace hpclab {

struct OwnCode {
    std::vector<Fingerprint> prints;  // sorted by hash, one per hash (its first place in the file)
    std::vector<std::string> lines;   // the file's lines, for excerpts
};

// Every k-gram hash of the skeleton.
std::unordered_set<std::uint64_t> skeleton_kgrams(std::string_view skeleton, const WinnowSettings& settings);

OwnCode own_code(std::string_view source, const std::unordered_set<std::uint64_t>& skeleton,
                 const WinnowSettings& settings);

// The hashes two files' own code share (both sorted by hash).
std::vector<std::uint64_t> shared_hashes(const OwnCode& a, const OwnCode& b);

// |shared| / |union| of the two sets of fingerprints (Jaccard's index): 1
// for the same own code, 0 for nothing in common or no own code.
double similarity_score(std::size_t shared, const OwnCode& a, const OwnCode& b);

}  // namespace hpclab
