#include "similarity/similarity_report.h"

#include "similarity/excerpt.h"
#include "util/csv.h"
#include "util/escape.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

constexpr std::size_t kPairsShownWhole = 20;  // side by side, per lab; the CSV lists every one
constexpr std::size_t kTableRows = 50;        // per lab: a lab whose code is all but dictated pairs everyone
constexpr std::size_t kExcerptLines = 15;
constexpr const char* kSolutionName = "the published solution";

std::string second_name_md(const LabSimilarity& lab, const SimilarPair& p)
{
    return lab.is_solution(p) ? kSolutionName : for_markdown(lab.students[p.b]);
}

// The two excerpts side by side, a row per line.
std::string side_by_side(const LabSimilarity& lab, const SimilarPair& p)
{
    const OwnCode& a = lab.files[p.a];
    const OwnCode& b = lab.second(p);
    const auto shared = shared_hashes(a, b);
    const auto left = shared_excerpt(a, shared, kExcerptLines), right = shared_excerpt(b, shared, kExcerptLines);
    const auto cell = [](const std::vector<ExcerptLine>& side, std::size_t i) {
        if (i >= side.size()) return std::string();
        if (side[i].number == 0) return std::string("...");
        return fmt::format("{}: {}", side[i].number, for_markdown(side[i].text));
    };
    std::string out = fmt::format("\n#### {} and {}: {:.2f} ({} fingerprints in common)\n\n| {}, lines {} | {}, lines {} |\n|---|---|\n",
                                  for_markdown(lab.students[p.a]), second_name_md(lab, p), p.score, p.shared,
                                  for_markdown(lab.students[p.a]), covered_ranges(a, shared), second_name_md(lab, p),
                                  covered_ranges(b, shared));
    for (std::size_t i = 0; i < std::max(left.size(), right.size()); ++i)
        out += fmt::format("| {} | {} |\n", cell(left, i), cell(right, i));
    return out;
}

std::string lab_section(const LabSimilarity& lab)
{
    std::string out = fmt::format("\n### {}\n\n", for_markdown(lab.lab));
    out += lab.look_score.from
               ? fmt::format("A pair scoring {:.2f} or more is worth a look in this lab (docs/results/similarity.txt).\n",
                             *lab.look_score.from)
               : fmt::format("No pair is marked in this lab: {} (docs/results/similarity.txt).\n", lab.look_score.why_none);
    if (!lab.equal_to_solution.empty()) {
        out += "\nThe published solution as it is written (layout and comments aside):";
        for (std::size_t i : lab.equal_to_solution) out += " " + for_markdown(lab.students[i]);
        out += ".\n";
    }
    if (lab.pairs.empty()) return out + fmt::format("\nNo pair scores {:.2f} or more.\n", kListedFrom);
    out += "\n| score | fingerprints in common | pair | look |\n|---|---|---|---|\n";
    for (std::size_t i = 0; i < std::min(lab.pairs.size(), kTableRows); ++i) {
        const SimilarPair& p = lab.pairs[i];
        out += fmt::format("| {:.2f} | {} | {} and {} | {} |\n", p.score, p.shared, for_markdown(lab.students[p.a]),
                           second_name_md(lab, p), lab.look(p) ? "yes" : "");
    }
    if (lab.pairs.size() > kTableRows)
        out += fmt::format("\n{} more pairs from {:.2f} in similarity.csv.\n", lab.pairs.size() - kTableRows, kListedFrom);
    std::size_t shown = 0;
    for (const SimilarPair& p : lab.pairs)
        if (lab.look(p) && shown++ < kPairsShownWhole) out += side_by_side(lab, p);
    if (shown > kPairsShownWhole)
        out += fmt::format("\n{} more pairs to look at: similarity.csv lists them with their lines.\n", shown - kPairsShownWhole);
    return out;
}

}  // namespace

std::string similarity_markdown(const std::vector<LabSimilarity>& labs)
{
    std::string out = fmt::format(
        "\n## Similarity\n\nPairs of files whose own code (the skeleton left out; names, numbers, comments and "
        "layout made alike) is near-identical, by winnowing as MOSS does; a score is the share of their "
        "fingerprints two files have in common, from {:.2f} listed. It is for a person to judge: it changes no "
        "grade and no verdict.\n",
        kListedFrom);
    for (const LabSimilarity& lab : labs) out += lab_section(lab);
    return out;
}

std::string similarity_csv(const std::vector<LabSimilarity>& labs)
{
    std::string out = csv_line({"lab", "kind", "student_a", "student_b", "score", "shared_fingerprints", "look",
                                "lines_a", "lines_b"});
    for (const LabSimilarity& lab : labs) {
        for (std::size_t i : lab.equal_to_solution)
            out += csv_line({for_csv(lab.lab), "equals_solution", for_csv(lab.students[i]), "", "", "", "yes", "", ""});
        for (const SimilarPair& p : lab.pairs) {
            const auto shared = shared_hashes(lab.files[p.a], lab.second(p));
            out += csv_line({for_csv(lab.lab), lab.is_solution(p) ? "solution" : "pair", for_csv(lab.students[p.a]),
                             lab.is_solution(p) ? "" : for_csv(lab.students[p.b]), fmt::format("{:.3f}", p.score),
                             fmt::format("{}", p.shared), lab.look(p) ? "yes" : "no",
                             covered_ranges(lab.files[p.a], shared), covered_ranges(lab.second(p), shared)});
        }
    }
    return out;
}

}  // namespace hpclab
