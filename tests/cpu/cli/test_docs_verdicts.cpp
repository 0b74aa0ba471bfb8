// The docs name a verdict as the screen prints it: hpclab writes the verdict
// table's title in capitals (`=> NOT COMPUTED ON THE GPU`), and a student who
// searches the page for those words must find them. A verdict named any
// other way (`NOT ON GPU`, `TAMPERING`, `MEMCHECK`) fails here, with the
// page, the line and the title it should be.
#include "course/verdict.h"
#include "test_support.h"
#include "util/text_file.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace hpclab;

namespace {

struct Misnamed {
    std::size_t line = 0;
    std::string written;
};

std::vector<std::string> screen_titles()
{
    std::vector<std::string> out;
    for (const VerdictInfo& v : verdict_table()) out.push_back(upper(v.title));
    return out;
}

// Whether the `len` characters at `pos` lie inside a title written whole
// there (A LIBRARY DOES THE WORK, where the scan's run starts at LIBRARY).
bool inside_a_title(const std::string& text, std::size_t pos, std::size_t len)
{
    const std::string part = text.substr(pos, len);
    for (const std::string& t : screen_titles())
        for (std::size_t o = t.find(part); o != std::string::npos; o = t.find(part, o + 1))
            if (o <= pos && text.compare(pos - o, t.size(), t) == 0) return true;
    return false;
}

// The words of every title, and every verdict's name in capitals (what a
// page writes when it names a verdict by its name rather than its title).
std::set<std::string> verdict_words()
{
    std::set<std::string> out;
    for (const VerdictInfo& v : verdict_table()) {
        std::istringstream words(upper(v.title));
        for (std::string w; words >> w;) out.insert(std::regex_replace(w, std::regex("[^A-Z]"), ""));
    }
    return out;
}
std::set<std::string> verdict_names()
{
    std::set<std::string> out;
    for (const VerdictInfo& v : verdict_table()) out.insert(upper(v.name));
    return out;
}

std::size_t line_of(const std::string& text, std::size_t pos)
{
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// Three ways a page names a verdict: a run of two or more capitalised words
// all of which are words of titles (NOT ON GPU), a quoted capitalised phrase
// (`MEMORY LEAK`), a quoted verdict name in capitals (`TAMPERING`). Each must
// lie inside a title written whole, in capitals.
std::vector<Misnamed> verdicts_not_as_printed(const std::string& text)
{
    std::map<std::size_t, std::string> found;  // by where it begins: a phrase both ways is one mistake
    const std::set<std::string> words = verdict_words(), names = verdict_names();
    const std::regex run(R"(\b[A-Z]{2,}(?: [A-Z]{2,})+\b)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), run); it != std::sregex_iterator(); ++it) {
        std::istringstream ws(it->str());
        bool all = true;
        for (std::string w; ws >> w;) all = all && words.count(w);
        const auto at = static_cast<std::size_t>(it->position());
        if (all && !inside_a_title(text, at, it->str().size())) found[at] = it->str();
    }
    const std::regex quoted(R"(`([A-Z][A-Z ():,-]*[A-Z)])`)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator(); ++it) {
        const std::string q = (*it)[1].str();
        const bool verdict_like = q.find(' ') != std::string::npos || names.count(q);
        const auto at = static_cast<std::size_t>(it->position(1));
        if (verdict_like && !inside_a_title(text, at, q.size())) found[at] = q;
    }
    std::vector<Misnamed> out;
    for (const auto& [at, written] : found) out.push_back({line_of(text, at), written});
    return out;
}

}  // namespace

TEST_CASE("docs: every verdict a page names is written as the screen prints it")
{
    for (const auto& page : test::doc_pages()) {
        const std::string text = read_text_file(page).value_or("");
        for (const Misnamed& m : verdicts_not_as_printed(text))
            FAIL_CHECK(fmt::format("{}:{}: \"{}\" is no verdict hpclab prints (hpclab verdicts: its titles, "
                                       "in capitals)",
                                       page.filename().string(), m.line, m.written));
    }
}

TEST_CASE("docs: the verdict scan finds each way a page misnames a verdict, and passes the titles")
{
    // Planted: a shortened title, a verdict's name for its title, a made-up one.
    CHECK(verdicts_not_as_printed("a task with no kernel is `NOT ON GPU`.").size() == 1);
    CHECK(verdicts_not_as_printed("then it is NOT ON GPU, as the table says").size() == 1);
    CHECK(verdicts_not_as_printed("that is `TAMPERING`").size() == 1);
    CHECK(verdicts_not_as_printed("`MEMCHECK`: a block wrote past the end").size() == 1);
    CHECK(verdicts_not_as_printed("and says `MEMORY LEAK`.").size() == 1);
    CHECK(verdicts_not_as_printed("is `WRONG LAUNCH`; one block").size() == 1);
    CHECK(verdicts_not_as_printed("the limit every CUDA GPU shares").size() == 1);
    // As printed: titles, a title with where it failed, words that are no verdict.
    CHECK(verdicts_not_as_printed("is `NOT COMPUTED ON THE GPU`, or `WRONG LAUNCH SHAPE`").empty());
    CHECK(verdicts_not_as_printed("`WRONG ANSWER at n=1000`, `TOO SLOW`, ... then PASS").empty());
    CHECK(verdicts_not_as_printed("`INVALID MEMORY ACCESS (MEMCHECK)` and `DATA RACE (RACECHECK)`").empty());
    CHECK(verdicts_not_as_printed("`INCONCLUSIVE: RERUN`, never `TOO SLOW`").empty());
    CHECK(verdicts_not_as_printed("is `A LIBRARY DOES THE WORK`").empty());
    CHECK(verdicts_not_as_printed("is LIBRARY DOES THE WORK").size() == 1);
    CHECK(verdicts_not_as_printed("`BLKDIM`, `RADIUS`, `SHFL`, an NVIDIA GPU, CC BY 4.0").empty());
}
