// Each lab's classic mistakes are written once, in its lab.json, and the
// broken set is that list: every mistake has its file tests/broken/<lab>/<id>.cu
// whose "// expect:" line is the mistake's verdict, and every file of the
// broken set is a mistake of its lab. The walkthroughs' tables of mistakes
// are rendered from the same list (tests/cpu/cli/test_docs.cpp).
#include "course/lab_catalog.h"
#include "course/mistakes_table.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::course_root;

namespace {

// The verdict a broken file's "// expect:" line names (the one the broken
// set's ctest demands), or "" without exactly one such line.
std::string expected_verdict(const std::filesystem::path& file)
{
    static const std::regex expect("^// expect: *([a-z_]+) *$");
    std::istringstream in(read_text_file(file).value_or(""));
    std::string line, found;
    int lines = 0;
    while (std::getline(in, line))
        if (std::smatch m; std::regex_match(line, m, expect)) {
            found = m[1];
            ++lines;
        }
    return lines == 1 ? found : "";
}

}  // namespace

TEST_CASE("mistakes: every mistake of a lab.json is a file of the broken set expecting its verdict")
{
    std::size_t mistakes = 0;
    for (const LabInfo& lab : catalog().labs()) {
        CAPTURE(lab.id);
        CHECK_FALSE(lab.mistakes.empty());
        for (const Mistake& m : lab.mistakes) {
            CAPTURE(m.id);
            const auto file = course_root() / "tests" / "broken" / lab.id / (m.id + ".cu");
            REQUIRE(std::filesystem::is_regular_file(file));
            CHECK(expected_verdict(file) == m.verdict);
            ++mistakes;
        }
    }
    CHECK(mistakes >= 50);  // issue 28: at least 50 classic mistakes, each caught
}

TEST_CASE("mistakes: every file of the broken set is a mistake of its lab")
{
    for (const auto& lab_dir : std::filesystem::directory_iterator(course_root() / "tests" / "broken")) {
        if (!lab_dir.is_directory()) continue;
        const LabInfo* lab = catalog().find(lab_dir.path().filename().string());
        const std::string not_a_lab = lab_dir.path().string() + " is not a lab";
        REQUIRE_MESSAGE(lab, not_a_lab);
        std::set<std::string> ids;
        for (const Mistake& m : lab->mistakes) ids.insert(m.id);
        for (const auto& f : std::filesystem::directory_iterator(lab_dir.path()))
            if (f.path().extension() == ".cu") {
                const std::string unlisted = f.path().string() + " is no mistake of labs/" + lab->id + "/lab.json (add it there)";
                CHECK_MESSAGE(ids.count(f.path().stem().string()), unlisted);
            }
    }
}

TEST_CASE("mistakes: lab.json's list is refused with a task or verdict that does not exist")
{
    const test::TempDir dir;
    const std::string lab_json = read_text_file(course_root() / "labs" / "vecadd3" / "lab.json").value();
    const auto load = [&](const std::string& from, const std::string& to) {
        const std::string text = std::regex_replace(lab_json, std::regex(from), to, std::regex_constants::format_first_only);
        const auto lab_dir = dir.path() / "vecadd3";
        std::filesystem::create_directories(lab_dir);
        dir.write("vecadd3/lab.json", text);
        return Catalog::load_lab(dir.path(), lab_dir / "lab.json");
    };
    CHECK_NOTHROW(load("x", "x"));
    CHECK_THROWS_WITH_AS(load("\"task\": \"add\"", "\"task\": \"addd\""), doctest::Contains("\"addd\" is not a task of the lab"),
                         CatalogError);
    CHECK_THROWS_WITH_AS(load("\"verdict\": \"memcheck\"", "\"verdict\": \"pass\""),
                         doctest::Contains("is not a failing verdict"), CatalogError);
    CHECK_THROWS_WITH_AS(load("\"id\": \"grid_rounded_down\"", "\"id\": \"no_bound_check\""),
                         doctest::Contains("\"no_bound_check\" twice"), CatalogError);
    CHECK_THROWS_WITH_AS(load("\"id\": \"grid_rounded_down\"", "\"id\": \"../x\""),
                         doctest::Contains("must be a file name"), CatalogError);
}

TEST_CASE("mistakes: the walkthrough's table, one row per mistake, its cells escaped for Markdown")
{
    LabInfo lab = test::lab_of("vecadd3");
    lab.mistakes = {{"pipes", "add", "a | b", "n = 1\nn = 2", "wrong_answer", "x | y"}};
    const std::string table = mistakes_markdown(lab);
    CHECK(table == "| the mistake | what makes it fail | verdict | what the check says |\n|---|---|---|---|\n"
                   "| a \\| b (`pipes.cu`) | n = 1 n = 2 | `wrong_answer` | x \\| y |\n");
}
