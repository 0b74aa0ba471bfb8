// The README's lab table is what `hpclab list --markdown` prints from the
// metadata (docs never repeat the metadata by hand), and the docs index
// links every lab's walkthrough.
#include "bench/metrics.h"
#include "bench/plot.h"
#include "bench/render.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace hpclab;

namespace {
std::string read(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
}  // namespace

TEST_CASE("docs: the README's lab table is generated from the metadata")
{
    const std::string readme = read(test::course_root() / "README.md");
    const auto begin = readme.find("<!-- labs:begin");
    const auto end = readme.find("<!-- labs:end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    const auto body_start = readme.find('\n', begin) + 1;
    const std::string table = readme.substr(body_start, end - body_start);
    const ProcessResult r = test::run_hpclab({"list", "--markdown"});
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(table == r.out, "README.md's table is stale: paste the output of ./hpclab list --markdown");
}

TEST_CASE("docs: the index links every walkthrough")
{
    const std::string index = read(test::course_root() / "docs" / "README.md");
    for (const auto& lab : test::catalog().labs()) CHECK(index.find("(" + lab.id + ".md)") != std::string::npos);
    CHECK(index.find("(performance.md)") != std::string::npos);
    CHECK(index.find("(instructors.md)") != std::string::npos);
}

TEST_CASE("docs: the performance page's results are the rendering of docs/results/bench-h100.json")
{
    const std::string page = read(test::course_root() / "docs" / "performance.md");
    const std::string section = generated_section(page, "docs/performance.md");
    const auto results = test::course_root() / "docs" / "results" / "bench-h100.json";
    if (!std::filesystem::exists(results)) {
        CHECK_MESSAGE(section.find("No results recorded yet") != std::string::npos,
                      "docs/performance.md shows results, but docs/results/bench-h100.json is not there");
        return;
    }
    const ProcessResult r = test::run_hpclab({"bench", "--report", results.string(), "--markdown"});
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(section == r.out, "docs/performance.md's results are stale: run ./hpclab bench --report "
                                    "docs/results/bench-h100.json --update docs/performance.md");
}

TEST_CASE("docs: every picture a walkthrough shows is there, is an SVG, and is shown")
{
    namespace fs = std::filesystem;
    const fs::path docs = test::course_root() / "docs";
    std::string all_docs;
    for (const auto& e : fs::directory_iterator(docs))
        if (e.path().extension() == ".md") all_docs += read(e.path());
    // Each reference names a file that exists.
    for (std::size_t at = 0; (at = all_docs.find("](figures/", at)) != std::string::npos; ++at) {
        const std::size_t end = all_docs.find(')', at);
        const std::string name = all_docs.substr(at + 2, end - at - 2);
        CAPTURE(name);
        CHECK(fs::is_regular_file(docs / name));
    }
    // Each figure is a whole SVG, and some walkthrough shows it.
    int figures = 0;
    for (const auto& e : fs::directory_iterator(docs / "figures")) {
        if (e.path().extension() != ".svg") continue;
        ++figures;
        const std::string svg = read(e.path());
        CAPTURE(e.path().filename().string());
        CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
        CHECK(svg.find("</svg>") != std::string::npos);
        CHECK(all_docs.find("](figures/" + e.path().filename().string() + ")") != std::string::npos);
    }
    CHECK(figures >= 5);
}

TEST_CASE("docs: the walkthroughs' plots are the rendering of docs/results/bench-h100.json")
{
    namespace fs = std::filesystem;
    BenchResults results = read_results_file(test::course_root() / "docs" / "results" / "bench-h100.json");
    compute_metrics(results.rows, results.header.gpu);  // as hpclab bench --report does
    const auto plots = render_plots(results);
    CHECK(plots.size() == 9);
    for (const auto& [name, svg] : plots) {
        CAPTURE(name);
        CHECK_MESSAGE(read(test::course_root() / "docs" / "figures" / "bench" / name) == svg,
                      "redraw: hpclab bench --report docs/results/bench-h100.json --plot docs/figures/bench");
    }
}

TEST_CASE("docs: getting-started's commands marked to run on a CPU run, and print what the page shows")
{
    const std::string doc = read(test::course_root() / "docs" / "getting-started.md");
    const test::TempDir state;  // a new student: nothing solved, no hint seen
    int blocks = 0;
    for (std::size_t at = 0; (at = doc.find("<!-- runs on a CPU -->\n```sh\n", at)) != std::string::npos; ++at) {
        const std::size_t cmd_begin = doc.find("```sh\n", at) + 6;
        const std::string command = doc.substr(cmd_begin, doc.find('\n', cmd_begin) - cmd_begin);
        CAPTURE(command);
        REQUIRE(command.rfind("./hpclab ", 0) == 0);
        const std::size_t text = doc.find("```text\n", cmd_begin);
        const std::size_t text_end = doc.find("```\n", text + 8);
        const std::string excerpt = doc.substr(text + 8, text_end - text - 8);
        ProcessSpec spec;
        spec.argv = {HPCLAB_EXE};
        std::istringstream words(command.substr(9));
        for (std::string w; words >> w;) spec.argv.push_back(w);
        spec.set_env = {{"HPCLAB_ROOT", test::course_root().string()}, {"HPCLAB_STATE", state.path().string()},
                        {"CUDA_VISIBLE_DEVICES", ""}};
        spec.wall_limit_s = 300;
        const ProcessResult r = run_process(spec);
        ++blocks;
        if (r.exit_code == 77) {
            MESSAGE("skipped here (no CUDA compiler): " << command);
            continue;
        }
        CHECK(r.exit_code == 0);
        std::istringstream lines(excerpt);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty()) CHECK_MESSAGE(r.out.find(line) != std::string::npos, "not printed: " << line);
    }
    CHECK(blocks >= 4);
}

TEST_CASE("docs: each walkthrough's measured table is its lab's rendering of docs/results/bench-h100.json")
{
    BenchResults results = read_results_file(test::course_root() / "docs" / "results" / "bench-h100.json");
    compute_metrics(results.rows, results.header.gpu);  // as hpclab bench --report does
    int tables = 0;
    for (const auto& lab : test::catalog().labs()) {
        const std::string doc = read(lab.doc);
        if (doc.find(kSectionBegin) == std::string::npos) continue;
        CAPTURE(lab.id);
        CHECK(section_lab(doc) == lab.id);
        CHECK_MESSAGE(generated_section(doc, lab.doc.string()) == render_markdown(results_of_lab(results, lab.id)),
                      "stale: ./hpclab bench --report docs/results/bench-h100.json --update docs/" << lab.id << ".md");
        ++tables;
    }
    CHECK(tables == 5);  // every lab with a bench sweep
}
