// The similarity report as the grading writes it: the pairs of a class in
// report.md and similarity.csv, names escaped for each, the published
// solution flagged, the skeleton as handed out left out.
#include "generated_class.h"
#include "grade/class_grading.h"
#include "grade/class_similarity.h"
#include "similarity/similarity_report.h"
#include "test_support.h"
#include "util/csv.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::course_root;

namespace {

std::string text_of(const std::filesystem::path& p) { return read_text_file(p).value_or("(missing)"); }
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A loop of the student's own, not in any lab's skeleton.
const std::string kOwn = "__global__ void mine(float *v, int n) {\n    for (int i = blockIdx.x; i < n; i += gridDim.x)\n"
                         "        v[i] = v[i] * v[i] + 3.0f;\n}\n";

}  // namespace

TEST_CASE("similarity report: names are escaped for Markdown and CSV, excerpts side by side")
{
    const std::string hostile = "=HYPERLINK(\"x\")|`*#";
    const LookScore none {.why_none = "not measured here"};  // a lab no measure holds: listed, not marked
    const LabSimilarity lab =
        compare_lab("demo", none, "", "", {{"plain", kOwn}, {hostile, kOwn}, {"other", "int main() { return 0; }\n"}});
    REQUIRE(lab.pairs.size() == 1);
    CHECK(lab.pairs[0].score == doctest::Approx(1.0));
    CHECK_FALSE(lab.look_score.from);

    const std::string md = similarity_markdown({lab});
    CHECK(has(md, "| 1.00 | " + std::to_string(lab.pairs[0].shared) + " | plain and =HYPERLINK(\"x\")\\|\\`\\*\\# |  |"));
    CHECK(has(md, "No pair is marked in this lab: not measured here"));
    CHECK_FALSE(has(md, "#### plain"));  // nothing marked: no excerpt

    const auto rows = parse_csv(similarity_csv({lab}));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0] == CsvRow {"lab", "kind", "student_a", "student_b", "score", "shared_fingerprints", "look", "lines_a", "lines_b"});
    CHECK(rows[1][1] == "pair");
    CHECK(rows[1][3] == "'" + hostile);  // a formula stays text
    CHECK(rows[1][4] == "1.000");
    CHECK(rows[1][7].rfind("1-", 0) == 0);  // from the first line
    CHECK(rows[1][7] == rows[1][8]);
}

TEST_CASE("similarity report: a marked pair is shown side by side, and the published solution is a party")
{
    const LabInfo& lab = test::lab_of("reduction");
    REQUIRE(lab.look_from);
    const std::string skeleton = text_of(lab.student_source()), solution = text_of(lab.solution_source());
    const LabSimilarity sim = compare_lab("reduction", {lab.look_from, lab.no_look}, skeleton, solution,
                                          {{"ada", solution}, {"ben", test::renamed(test::recommented(solution), skeleton)}});
    CHECK(sim.equal_to_solution == std::vector<std::size_t> {0});  // ben's is renamed: a pair, not equal
    REQUIRE(sim.pairs.size() == 3);                               // ada ~ ben, ada ~ solution, ben ~ solution
    for (const SimilarPair& p : sim.pairs) CHECK(sim.look(p));
    const std::string md = similarity_markdown({sim});
    CHECK(has(md, "The published solution as it is written (layout and comments aside): ada."));
    CHECK(has(md, "#### ada and ben: "));
    CHECK(has(md, "#### ben and the published solution: "));
    CHECK(has(md, "|---|---|\n| "));
    const std::string csv = similarity_csv({sim});
    CHECK(has(csv, "reduction,equals_solution,ada,,,,yes,,\n"));
    CHECK(has(csv, "reduction,solution,ben,,"));
}

TEST_CASE("similarity report: the grading writes it, the skeleton as handed out left out")
{
    const test::TempDir d;
    const LabInfo& lab = test::lab_of("reduction");
    const std::string skeleton = text_of(lab.student_source()), solution = text_of(lab.solution_source());
    d.write("class/ada/reduction.cu", solution);
    d.write("class/ben/reduction.cu", test::reordered(test::renamed(solution, skeleton)));
    d.write("class/cy/reduction.cu", skeleton);
    d.write("class/dee/reduction.cu", skeleton);
    const ClassFolder cls = discover_class(d.path() / "class", test::catalog());
    const auto similar = class_similarity(cls, test::catalog());
    REQUIRE(similar.size() == 1);
    CHECK(similar[0].students == std::vector<std::string> {"ada", "ben"});  // cy and dee handed the skeleton in

    const GradeFolder out(d.path() / "out");
    std::filesystem::create_directories(out.root());
    write_class_outputs(out, cls, {}, test::catalog(), GradingConfig {}, GradingSettings {});
    CHECK(has(text_of(out.root() / "report.md"), "\n## Similarity\n"));
    CHECK(has(text_of(out.root() / "similarity.csv"), "reduction,pair,ada,ben,"));
}

TEST_CASE("similarity report: a lab where everyone is alike keeps report.md readable, and the CSV whole")
{
    std::vector<HandedIn> files;
    for (int i = 0; i < 12; ++i) files.push_back({"s" + std::to_string(i), kOwn});
    const LabSimilarity lab = compare_lab("demo", {}, "", "", files);
    CHECK(lab.pairs.size() == 66);
    CHECK(has(similarity_markdown({lab}), "\n16 more pairs from 0.50 in similarity.csv.\n"));
    CHECK(parse_csv(similarity_csv({lab})).size() == 67);
}

TEST_CASE("similarity: a lab's look score is its lab.json's, or the reason it has none")
{
    CHECK(test::lab_of("reduction").look_from == 0.70);
    CHECK_FALSE(test::lab_of("hello").look_from);  // the TODOs dictate the code: no score parts copies
    CHECK(test::lab_of("hello").no_look.find("dictated") != std::string::npos);
    CHECK_FALSE(test::lab_of("vecadd2").look_from);  // no "similarity": not measured, and says so
    CHECK(test::lab_of("vecadd2").no_look.starts_with("not measured"));
}
