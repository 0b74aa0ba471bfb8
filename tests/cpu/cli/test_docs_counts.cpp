// The counts the pages state are the course's: how many labs there are
// ("Fourteen hands-on labs", a progress bar's "3 of 14") and how many the
// benchmark sweeps ("all thirteen"), read from lab.json as hpclab reads it.
// A count written when the course had fewer labs fails here.
#include "bench/plan.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace hpclab;

namespace {

// "14", "fourteen" or "Fourteen"; nothing for any other word.
std::optional<int> number(std::string word)
{
    static constexpr std::array<const char*, 21> kWords = {
        "zero",   "one",    "two",     "three",   "four",     "five",    "six",
        "seven",  "eight",  "nine",    "ten",     "eleven",   "twelve",  "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))) return std::stoi(word);
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::size_t i = 0; i < kWords.size(); ++i)
        if (word == kWords[i]) return static_cast<int>(i);
    return std::nullopt;
}

struct Stated {
    std::string written;
    int count = 0;
    bool of_sweeps = false;  // the labs the benchmark sweeps, not every lab
};

// "N hands-on labs", "N labs in the course", "of N labs solved": every lab.
// "every lab with a sweep: all N": the labs with a sweep.
std::vector<Stated> stated_counts(const std::string& text)
{
    std::vector<Stated> out;
    const std::regex every(R"(\b([A-Za-z]+|[0-9]+) (?:hands-on labs|labs in the course|labs solved)\b)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), every); it != std::sregex_iterator(); ++it)
        if (const auto n = number((*it)[1].str())) out.push_back({it->str(), *n, false});
    const std::regex swept(R"(every lab with a sweep: all ([A-Za-z]+|[0-9]+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), swept); it != std::sregex_iterator(); ++it)
        if (const auto n = number((*it)[1].str())) out.push_back({it->str(), *n, true});
    return out;
}

}  // namespace

TEST_CASE("docs: the counts of labs a page states are the course's")
{
    const int labs = static_cast<int>(test::catalog().labs().size());
    const int swept = static_cast<int>(labs_with_sweeps(test::catalog()).size());
    int seen = 0;
    for (const auto& page : test::doc_pages())
        for (const Stated& s : stated_counts(read_text_file(page).value_or(""))) {
            ++seen;
            const int want = s.of_sweeps ? swept : labs;
            if (s.count != want)
                FAIL_CHECK(fmt::format("{}: \"{}\" but the course has {} {}", page.filename().string(), s.written, want,
                                       s.of_sweeps ? "labs with a sweep" : "labs"));
        }
    CHECK(seen >= 3);  // the README's opening, its progress bar, the performance page's sweep
}

TEST_CASE("docs: the count scan reads the ways a page states a count")
{
    CHECK(stated_counts("Ten hands-on labs that follow").front().count == 10);
    CHECK(stated_counts("a bar (`[###.......] 3 of 10 labs solved`)").front().count == 10);
    const auto sweep = stated_counts("./hpclab bench   # every lab with a sweep: all ten");
    REQUIRE(sweep.size() == 1);
    CHECK(sweep.front().of_sweeps);
    CHECK(sweep.front().count == 10);
    CHECK(stated_counts("14 labs in the course").front().count == 14);
    CHECK(stated_counts("40 students x 9 labs").empty());  // a measurement of its day, not the course
}

TEST_CASE("docs: each walkthrough's title is its lab's number in the course's order and its id, in one style")
{
    int n = 0;
    for (const auto& lab : test::catalog().labs()) {
        ++n;
        CAPTURE(lab.id);
        const std::string page = read_text_file(test::course_root() / "docs" / (lab.id + ".md")).value_or("");
        const std::string first = page.substr(0, page.find('\n'));
        CHECK_MESSAGE(first.rfind(fmt::format("# Lab {}: `{}` - ", n, lab.id), 0) == 0,
                      "docs/" << lab.id << ".md's title: " << first);
    }
}
