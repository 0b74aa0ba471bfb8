// What the similarity report scores on the generated class, per lab: the
// least a planted copy scores and the most two independent files do, each
// with its pair, and how many of each the lab's look score marks. The
// lines of docs/results/similarity.txt.
#pragma once

#include "generated_class.h"
#include "similarity/fingerprints.h"

#include <optional>
#include <string>

namespace hpclab::test {

struct LabMeasure {
    std::string lab;
    std::size_t files = 0, planted_pairs = 0, independent_pairs = 0;
    double planted_min = 1, independent_max = 0;
    std::string planted_min_pair, independent_max_pair;
    std::size_t planted_marked = 0, independent_marked = 0;  // at or above the look score
    std::optional<double> look;  // look_score(lab).from
};

LabMeasure measure_lab(const GeneratedLab& g, const WinnowSettings& settings = {});
std::string results_line(const LabMeasure& m);

}  // namespace hpclab::test
