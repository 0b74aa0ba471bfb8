#include "class_measure.h"

#include "similarity/lab_similarity.h"
#include "test_support.h"

#include <fmt/format.h>

namespace hpclab::test {

LabMeasure measure_lab(const GeneratedLab& g, const WinnowSettings& settings)
{
    std::vector<HandedIn> handed;
    for (const GeneratedFile& f : g.files) handed.push_back({f.student, f.source});
    const LabInfo& lab = lab_of(g.lab);
    const LabSimilarity sim = compare_lab(g.lab, {lab.look_from, lab.no_look}, g.skeleton, g.solution, handed, settings);
    LabMeasure m {.lab = g.lab, .files = g.files.size(), .look = sim.look_score.from};
    for (std::size_t a = 0; a < g.files.size(); ++a)
        for (std::size_t b = a + 1; b < g.files.size(); ++b) {
            const std::size_t sh = shared_hashes(sim.files[a], sim.files[b]).size();
            const double score = similarity_score(sh, sim.files[a], sim.files[b]);
            const std::string pair = g.files[a].student + " ~ " + g.files[b].student;
            const bool marked = m.look && score >= *m.look;
            if (g.planted(a, b)) {
                ++m.planted_pairs, m.planted_marked += marked;
                if (m.planted_min_pair.empty() || score < m.planted_min) m.planted_min = score, m.planted_min_pair = pair;
            } else {
                ++m.independent_pairs, m.independent_marked += marked;
                if (m.independent_max_pair.empty() || score > m.independent_max) m.independent_max = score, m.independent_max_pair = pair;
            }
        }
    return m;
}

std::string results_line(const LabMeasure& m)
{
    const auto extreme = [](std::size_t pairs, double score, const std::string& pair) {
        return pairs ? fmt::format("{:.2f} ({})", score, pair) : std::string("none");
    };
    return fmt::format("lab={} files={} planted_pairs={} planted_min={} independent_pairs={} independent_max={} "
                       "look={} planted_marked={} independent_marked={}\n",
                       m.lab, m.files, m.planted_pairs, extreme(m.planted_pairs, m.planted_min, m.planted_min_pair),
                       m.independent_pairs, extreme(m.independent_pairs, m.independent_max, m.independent_max_pair),
                       m.look ? fmt::format("{:.2f}", *m.look) : "none", m.planted_marked, m.independent_marked);
}

}  // namespace hpclab::test
