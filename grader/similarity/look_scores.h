// Per lab, the score from which a pair is worth a person's look: above
// every pair of independent files the generated class holds, at or below
// all its planted copies (tests/cpu/similarity/test_similarity_class.cpp
// measures both, keeps them in docs/results/similarity.txt, and checks
// each score here against them).
#pragma once

#include <optional>
#include <string>

namespace hpclab {

struct LookScore {
    std::optional<double> from;  // none: no score tells a copy from independent work here
    std::string why_none;        // then, why: for the report
};

LookScore look_score(const std::string& lab);

}  // namespace hpclab
