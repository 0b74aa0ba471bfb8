// The lines of a file that two files' shared fingerprints cover: what a
// person reads to judge a pair, and where it is ("12-18, 30").
#pragma once

#include "similarity/own_code.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hpclab {

struct ExcerptLine {
    int number = 0;    // 1-based; 0: a gap between two stretches ("...")
    std::string text;
};

// The lines of `file` covered by the fingerprints whose hash is in
// `shared` (sorted), in order, at most `max_lines` of them.
std::vector<ExcerptLine> shared_excerpt(const OwnCode& file, const std::vector<std::uint64_t>& shared,
                                        std::size_t max_lines);

// Those lines as ranges: "12-18, 30".
std::string covered_ranges(const OwnCode& file, const std::vector<std::uint64_t>& shared);

}  // namespace hpclab
