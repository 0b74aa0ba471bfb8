// The similarity report measured on the generated class (generated_class.h):
// per lab, the scores of the planted copies and of independent files, kept
// in docs/results/similarity.txt for the docs to quote, and the look score
// of each lab (its lab.json "similarity") between the two.
#include "class_measure.h"
#include "similarity/similarity_report.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

using namespace hpclab;

namespace {

const std::filesystem::path kResults = "docs/results/similarity.txt";

constexpr const char* kHeader =
    "# The similarity report's scores on the generated class of tests/cpu/similarity/generated_class.cpp\n"
    "# (per lab: the sample class's files, the published solution, the hostile set's honest_*.cu and the\n"
    "# benchmark variants, each with four planted copies: renamed, reordered, recommented, all three).\n"
    "# planted: two files of one origin; independent: of two. look: each labs/<lab>/lab.json \"similarity\";\n"
    "# marked: the pairs scoring at least that. Written by HPCLAB_WRITE_SIMILARITY_RESULTS=1\n"
    "# build/default/tests/hpclab_cpu_tests -tc='similarity: the generated class*'.\n";

std::vector<test::LabMeasure> measures()
{
    std::vector<test::LabMeasure> out;
    for (const LabInfo& lab : test::catalog().labs()) out.push_back(test::measure_lab(test::generated_lab(lab)));
    return out;
}

}  // namespace

TEST_CASE("similarity: the generated class's scores are docs/results/similarity.txt's")
{
    std::string text = kHeader;
    for (const auto& m : measures()) text += test::results_line(m);
    if (std::getenv("HPCLAB_WRITE_SIMILARITY_RESULTS")) std::ofstream(test::course_root() / kResults, std::ios::binary) << text;
    CHECK_MESSAGE(read_text_file(test::course_root() / kResults) == text,
                  "the scores changed: rerun with HPCLAB_WRITE_SIMILARITY_RESULTS=1, and update the docs that quote "
                  "them; they are now:\n"
                      << text);
}

TEST_CASE("similarity: the generated class: each lab's look score marks every planted copy and no independent pair")
{
    for (const auto& m : measures()) {
        CAPTURE(test::results_line(m));
        if (m.look) {
            CHECK(m.independent_marked == 0);
            CHECK(m.planted_marked == m.planted_pairs);
            CHECK(m.independent_pairs > 0);  // a score is only set where both were measured
        } else if (m.independent_pairs > 0) {
            // A lab left unmarked is one where no score could part them.
            CHECK(m.independent_max >= m.planted_min);
        }
    }
}

// How long a lab of 400 files takes (80,000 pairs), the generated class's
// matmul files copied over and over: a measure to run by hand, no check.
TEST_CASE("similarity: 400 files of one lab, timed (run by hand: --no-skip)" * doctest::skip())
{
    const test::GeneratedLab g = test::generated_lab(test::lab_of("matmul"));
    std::vector<HandedIn> files;
    for (std::size_t i = 0; i < 400; ++i) {
        const test::GeneratedFile& f = g.files[i % g.files.size()];
        files.push_back({fmt::format("s{:03}", i), test::reordered(test::renamed(f.source, g.skeleton))});
    }
    const auto start = std::chrono::steady_clock::now();
    const LabInfo& lab = test::lab_of(g.lab);
    const LabSimilarity sim = compare_lab(g.lab, {lab.look_from, lab.no_look}, g.skeleton, g.solution, files);
    const std::string md = similarity_markdown({sim}), csv = similarity_csv({sim});
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    MESSAGE(fmt::format("400 files, {} pairs listed, report {} bytes, csv {} bytes: {:.2f} s", sim.pairs.size(),
                        md.size(), csv.size(), took.count()));
}
