// A generated class to measure the similarity report on: per lab, files
// written independently (the sample class's, the published solution, the
// hostile set's honest_*.cu, the benchmark variants that compute the lab's
// result) and, of each, planted copies as a student hides one: names
// changed, independent statements swapped, comments rewritten, and all
// three at once.
#pragma once

#include "course/lab_catalog.h"

#include <string>
#include <utility>
#include <vector>

namespace hpclab::test {

// Every name of `source` the skeleton does not hold, renamed consistently.
std::string renamed(const std::string& source, const std::string& skeleton);
// Adjacent simple statements that touch each other's names not, swapped.
std::string reordered(const std::string& source);
// The comments removed, others written, the indentation changed.
std::string recommented(const std::string& source);

struct GeneratedFile {
    std::string student;  // "<origin>" or "<origin>~<how copied>"
    std::string origin;   // the independent file it is, or is a copy of
    std::string source;
};

struct GeneratedLab {
    std::string lab, skeleton, solution;
    std::vector<GeneratedFile> files;
    // Two files of one origin: a planted copy; of two: independent.
    bool planted(std::size_t a, std::size_t b) const { return files[a].origin == files[b].origin; }
};

GeneratedLab generated_lab(const LabInfo& lab);

}  // namespace hpclab::test
