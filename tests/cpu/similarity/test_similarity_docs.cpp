// docs/instructors.md's section on similar files quotes what the code and
// docs/results/similarity.txt hold: the settings of the winnowing, and per
// lab the score that marks a pair and what the generated class measured.
#include "similarity/fingerprints.h"
#include "similarity/lab_similarity.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <map>
#include <regex>
#include <sstream>

using namespace hpclab;

namespace {

// Per lab, "look planted_min independent_max" as the results file has them.
std::map<std::string, std::string> measured()
{
    std::map<std::string, std::string> out;
    std::istringstream lines(read_text_file(test::course_root() / "docs/results/similarity.txt").value_or(""));
    static const std::regex line(R"(^lab=(\S+) .*planted_min=(\S+).* independent_pairs=(\d+) independent_max=(\S+).* look=(\S+) )");
    for (std::string l; std::getline(lines, l);)
        if (std::smatch m; std::regex_search(l, m, line) && m[3] != "0")
            out[m[1]] = fmt::format("{} {} {}", m[5].str(), m[2].str(), m[4].str());
    return out;
}

}  // namespace

TEST_CASE("docs: the similarity scores docs/instructors.md quotes are docs/results/similarity.txt's")
{
    const std::string page = read_text_file(test::course_root() / "docs/instructors.md").value_or("");
    const auto begin = page.find("<!-- similarity:begin -->"), end = page.find("<!-- similarity:end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    std::map<std::string, std::string> quoted;
    std::istringstream rows(page.substr(begin, end - begin));
    static const std::regex row(R"(^\| (\w+) \| (\S+) \| (\S+) \| (\S+) \|$)");
    for (std::string r; std::getline(rows, r);)
        if (std::smatch m; std::regex_match(r, m, row)) quoted[m[1]] = fmt::format("{} {} {}", m[2].str(), m[3].str(), m[4].str());
    const auto kept = measured();
    CHECK(kept.size() >= 5);
    CHECK(quoted == kept);  // every lab measured against independent files, as measured
}

TEST_CASE("docs: the winnowing's settings docs/instructors.md gives are the code's")
{
    const std::string page = read_text_file(test::course_root() / "docs/instructors.md").value_or("");
    const WinnowSettings s;
    CHECK(page.find(fmt::format("a hash of every run of {} tokens, the smallest of each\n{} in a row kept", s.k, s.w)) !=
          std::string::npos);
    CHECK(page.find(fmt::format("any stretch of {} tokens two files share", s.k + s.w - 1)) != std::string::npos);
    CHECK(page.find(fmt::format("Pairs from {:.2f} are listed", kListedFrom)) != std::string::npos);
}
