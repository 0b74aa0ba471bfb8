// One lab's files compared two by two, and with the published solution: the
// pairs whose own code is alike, most alike first. It flags for a person;
// nothing here touches a grade or a verdict.
#pragma once

#include "similarity/own_code.h"

#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// The score from which a pair is worth a person's look: above every pair of
// independent files the generated class holds, at or below all its planted
// copies (lab.json "similarity"; tests/cpu/similarity/test_similarity_class.cpp
// measures both, keeps them in docs/results/similarity.txt, and checks each
// lab's score against them).
struct LookScore {
    std::optional<double> from;  // none: no score tells a copy from independent work here
    std::string why_none;        // then, why: for the report
};

struct HandedIn {
    std::string student;
    std::string source;  // the file's bytes
};

struct SimilarPair {
    std::size_t a = 0, b = 0;  // into LabSimilarity::files; b == files.size(): the published solution
    std::size_t shared = 0;    // fingerprints in common
    double score = 0;          // similarity_score
};

struct LabSimilarity {
    std::string lab;
    LookScore look_score;
    std::vector<std::string> students;    // one per file, in the order given
    std::vector<OwnCode> files;           // the same order
    OwnCode solution;
    std::vector<SimilarPair> pairs;       // score >= kListedFrom, highest first
    std::vector<std::size_t> equal_to_solution;  // files whose tokens are the solution's, names and numbers kept
    bool is_solution(const SimilarPair& p) const { return p.b == files.size(); }
    const OwnCode& second(const SimilarPair& p) const { return is_solution(p) ? solution : files[p.b]; }
    bool look(const SimilarPair& p) const { return look_score.from && p.score >= *look_score.from; }
};

// Pairs scoring below this are not listed at all: the report and the CSV
// stay readable for a class of hundreds.
constexpr double kListedFrom = 0.5;

LabSimilarity compare_lab(const std::string& lab, const LookScore& look, const std::string& skeleton,
                          const std::string& solution, const std::vector<HandedIn>& files,
                          const WinnowSettings& settings = {});

}  // namespace hpclab
