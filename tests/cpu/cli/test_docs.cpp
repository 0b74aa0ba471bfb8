// The README's lab table is what `hpclab list --markdown` prints from the
// metadata (docs never repeat the metadata by hand), and the docs index
// links every lab's walkthrough.
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
