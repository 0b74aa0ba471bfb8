// The verdict table (course/verdict.h): one row per verdict, in the order of
// precedence, each with the facts every command takes from it.
#include "course/verdict.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace hpclab;

TEST_CASE("verdict table: every verdict once, in the enum's order, with a unique name and title")
{
    std::set<std::string> names, titles;
    int i = 0;
    for (const VerdictInfo& v : verdict_table()) {
        CAPTURE(v.name);
        CHECK(static_cast<int>(v.verdict) == i);
        CHECK(precedence(v.verdict) == i++);
        CHECK(names.insert(std::string(v.name)).second);
        CHECK(titles.insert(std::string(v.title)).second);
        CHECK(verdict_from_name(v.name) == v.verdict);
        CHECK(&verdict_info(v.verdict) == &v);
    }
    CHECK(i == static_cast<int>(Verdict::not_run) + 1);
    CHECK_FALSE(verdict_from_name("wrong_anwser"));
}

TEST_CASE("verdict table: exit statuses, classes and advice")
{
    CHECK(verdict_info(Verdict::pass).exit_status == kPass);
    CHECK(verdict_info(Verdict::not_run).exit_status == kSkipped);
    CHECK(verdict_info(Verdict::grader_error).exit_status == kGraderError);
    for (const VerdictInfo& v : verdict_table()) {
        CAPTURE(v.name);
        CHECK(is_failure(v.verdict) == (v.verdict != Verdict::pass && v.verdict != Verdict::not_run));
        if (!is_failure(v.verdict)) {
            CHECK(v.kind == VerdictClass::none);
            continue;
        }
        CHECK_FALSE(v.advice.empty());  // every failure tells the student where to look
        if (v.verdict != Verdict::grader_error) CHECK(v.exit_status == kFail);
    }
    CHECK(verdict_info(Verdict::race).kind == VerdictClass::sanitizer);
    CHECK(verdict_info(Verdict::too_slow).kind == VerdictClass::speed);
    CHECK(verdict_info(Verdict::grader_error).kind == VerdictClass::grader);
    CHECK(class_name(VerdictClass::result) == "result");
}

TEST_CASE("verdict table: the traits agree with the classes")
{
    for (const VerdictInfo& v : verdict_table()) {
        CAPTURE(v.name);
        const VerdictTraits& t = v.traits;
        // A file not judged for good is never a mark: a person sees it first.
        if (!t.final) CHECK(t.held);
        // A failure that is not the student's to fix goes to a person.
        if (is_failure(v.verdict) && !t.hint) CHECK(t.held);
        // A sanitizer explains what was written wrong, memcheck locates a death.
        if (t.sanitizer_explains) CHECK(v.kind == VerdictClass::result);
        if (t.memcheck_locates) CHECK(v.kind == VerdictClass::run);
        CHECK(held_for_a_person(v.verdict) == t.held);
        CHECK(is_final(v.verdict) == t.final);
    }
    CHECK_FALSE(is_final(Verdict::grader_error));
    CHECK(is_final(Verdict::wrong_answer));
    CHECK(held_for_a_person(Verdict::tampering));
    CHECK_FALSE(held_for_a_person(Verdict::too_slow));
}
