// The similarity report measured on the generated class (generated_class.h):
// per lab, the scores of the planted copies and of independent files, kept
// in docs/results/similarity.txt for the docs to quote, and the look score
// of each lab (look_scores.cpp) between the two.
#include "class_measure.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

using namespace hpclab;

namespace {

const std::filesystem::path kResults = "docs/results/similarity.txt";

constexpr const char* kHeader =
    "# The similarity report's scores on the generated class of tests/cpu/similarity/generated_class.cpp\n"
    "# (per lab: the sample class's files, the published solution, the hostile set's honest_*.cu and the\n"
    "# benchmark variants, each with four planted copies: renamed, reordered, recommented, all three).\n"
    "# planted: two files of one origin; independent: of two. look: grader/similarity/look_scores.cpp;\n"
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
