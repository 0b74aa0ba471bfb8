// The profiler's rules (course/profile_rules.h): lab.json's "when" and
// "say" parsed or refused with a reason, the first rule that holds chosen,
// its measures filled in; and every lab's rules agree with the course:
// each sentence names a section its walkthrough has, each too-slow broken
// file's "// profile:" measure is one its lab has a rule on.
#include "course/profile_rules.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <regex>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::course_root;

namespace {

ProfileRule rule(const std::string& when, const std::string& say)
{
    ProfileRule r;
    const auto bad = parse_profile_rule(when, say, r);
    REQUIRE_MESSAGE(!bad, *bad);
    return r;
}

std::string refusal(const std::string& when, const std::string& say = "text")
{
    ProfileRule r;
    return parse_profile_rule(when, say, r).value_or("");
}

}  // namespace

TEST_CASE("profile rules: a rule parses into its measure, operator and value")
{
    const ProfileRule r = rule("lanes_per_warp < 8", "your warps run {lanes_per_warp} lanes");
    CHECK(r.measure == "lanes_per_warp");
    CHECK(r.op == '<');
    CHECK(r.number == doctest::Approx(8));
    const ProfileRule s = rule("top_stall == barrier", "they wait at the barrier");
    CHECK(s.op == '=');
    CHECK(s.name == "barrier");
}

TEST_CASE("profile rules: every malformed rule is refused with what is wrong")
{
    CHECK(refusal("lanes < 8").find("no measure") != std::string::npos);
    CHECK(refusal("lanes_per_warp <= 8").find("< or >") != std::string::npos);
    CHECK(refusal("lanes_per_warp < eight").find("no number") != std::string::npos);
    CHECK(refusal("lanes_per_warp < 8 or more").find("<measure> <op> <value>") != std::string::npos);
    CHECK(refusal("top_stall > 2").find("==") != std::string::npos);
    CHECK(refusal("sm_busy_pct < 25", "").find("empty") != std::string::npos);
    CHECK(refusal("sm_busy_pct < 25", "busy {sm_busy}").find("{sm_busy}") != std::string::npos);
    CHECK(refusal("sm_busy_pct < 25", "busy {sm_busy_pct").find("no }") != std::string::npos);
}

TEST_CASE("profile rules: the first rule that holds speaks, its measures filled in")
{
    const std::vector<ProfileRule> rules = {rule("atomics_per_block > 2", "atomics: {atomics_per_block}"),
                                            rule("lanes_per_warp < 8", "lanes {lanes_per_warp}, busy {sm_busy_pct}%"),
                                            rule("top_stall == barrier", "the barrier")};
    ProfileValues v;
    v.numbers = {{"atomics_per_block", 1}, {"lanes_per_warp", 1}, {"sm_busy_pct", 95.6}};
    v.names = {{"top_stall", "barrier"}};
    auto said = profile_sentence(rules, v);
    REQUIRE(said);
    CHECK(said->measure == "lanes_per_warp");
    CHECK(said->text == "lanes 1, busy 96%");
    // A measure not known (its counters did not come back) never holds: the next rule speaks.
    v.numbers.erase("lanes_per_warp");
    said = profile_sentence(rules, v);
    REQUIRE(said);
    CHECK(said->measure == "top_stall");
    v.names.clear();
    CHECK_FALSE(profile_sentence(rules, v));
}

TEST_CASE("profile rules: every sentence of the course names a section its walkthrough has")
{
    const std::regex reference(R"(\((docs/[a-z0-9_]+\.md), (.+)\)$)");
    int rules = 0;
    for (const LabInfo& lab : catalog().labs()) {
        std::vector<ProfileRule> all = lab.profile;
        for (const TaskInfo& t : lab.tasks) all.insert(all.end(), t.profile.begin(), t.profile.end());
        for (const ProfileRule& r : all) {
            ++rules;
            std::smatch m;
            INFO(lab.id << ": " << r.say);
            REQUIRE(std::regex_search(r.say, m, reference));
            const std::string doc = read_text_file(course_root() / m[1].str()).value_or("");
            CHECK(doc.find("# " + m[2].str() + "\n") != std::string::npos);
        }
    }
    CHECK(rules > 0);
}

TEST_CASE("profile rules: each too-slow broken file's measure is one its lab has a rule on")
{
    const std::regex profile_line("(^|\n)// profile: *([a-z_]+) *\n");
    int files = 0;
    for (const LabInfo& lab : catalog().labs()) {
        const auto dir = course_root() / "tests" / "broken" / lab.id;
        if (!std::filesystem::exists(dir)) continue;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            const std::string text = read_text_file(e.path()).value_or("");
            if (text.rfind("// expect: too_slow\n", 0) != 0) continue;
            ++files;
            INFO(e.path().string());
            std::smatch m;
            REQUIRE(std::regex_search(text, m, profile_line));
            bool ruled = false;
            for (const ProfileRule& r : lab.profile) ruled = ruled || r.measure == m[2].str();
            for (const TaskInfo& t : lab.tasks)
                for (const ProfileRule& r : t.profile) ruled = ruled || r.measure == m[2].str();
            CHECK(ruled);
        }
    }
    CHECK(files >= 8);
}
