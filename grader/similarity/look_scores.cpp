#include "similarity/look_scores.h"

#include <map>

namespace hpclab {

LookScore look_score(const std::string& lab)
{
    // Between the most two independent files scored and the least a planted
    // copy did (docs/results/similarity.txt), a little above the former.
    static const std::map<std::string, double> measured = {
        {"aos_soa", 0.70},  // independent at most 0.41, planted at least 1.00: vecadd1's case
        {"vecadd0", 0.70},  // independent at most 0.39 (the hostile set's honest_managed), planted 1.00
        {"vecadd1", 0.70}, {"stencil", 0.55}, {"program", 0.75}, {"reduction", 0.70}, {"matmul", 0.80}, {"rotation", 0.85},
        {"symbols", 0.85}, {"streams", 0.92}, {"warpreduce", 0.70}};
    // Labs whose own code the TODOs all but dictate: independent files
    // score as high as copies.
    static const std::map<std::string, std::string> forced = {
        {"hello", "the few lines the TODOs ask for are all but dictated: independent files score 1.00 here"},
        {"vecadd3", "the kernel the TODOs ask for is all but dictated: independent files score 1.00 here, as "
                    "high as copies"}};
    if (const auto m = measured.find(lab); m != measured.end()) return {m->second, ""};
    if (const auto f = forced.find(lab); f != forced.end()) return {std::nullopt, f->second};
    return {std::nullopt, "not measured: the generated class holds no independent files of this lab"};
}

}  // namespace hpclab
