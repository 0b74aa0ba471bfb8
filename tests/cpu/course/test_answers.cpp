// Measured answers (course/profile_rules.h): a question parsed or refused with a
// reason, the answers read from a student's file wherever its lines are,
// and each judged against a measure without the message showing it; and
// every lab that asks questions has a program as given that is the
// course's skeleton, answered right by its solution.
#include "course/profile_rules.h"
#include "test_support.h"
#include "util/git_blob.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;

TEST_CASE("answers: a question is a task and a numeric measure of the profiler")
{
    AnswerAsked q;
    CHECK_FALSE(parse_answer_asked("scale_rows.load_sectors_per_request", q));
    CHECK(q.task == "scale_rows");
    CHECK(q.measure == "load_sectors_per_request");
    CHECK(q.key() == "scale_rows.load_sectors_per_request");
    CHECK(parse_answer_asked("load_sectors_per_request", q)->find("<task>.<measure>") != std::string::npos);
    CHECK(parse_answer_asked("t.sectors", q)->find("not a measure") != std::string::npos);
    CHECK(parse_answer_asked("t.top_stall", q)->find("a name, not a number") != std::string::npos);
}

TEST_CASE("answers: read from any line of the file, in a comment or not, the first of a key counting")
{
    const auto a = answers_in("/* ANSWERS:\n"
                              "answer scale_rows.load_sectors_per_request = 18\n"
                              " * answer transpose.shared_wavefronts_per_request=16.5  \r\n"
                              "// answer scale_rows.store_sectors_per_request =\n"
                              "answer scale_rows.load_sectors_per_request = 4\n"
                              "x = 1; // not an answer scale_rows.lanes_per_warp = 32\n"
                              "*/\n");
    CHECK(a.size() == 3);
    CHECK(a.at("scale_rows.load_sectors_per_request") == "18");
    CHECK(a.at("transpose.shared_wavefronts_per_request") == "16.5");
    CHECK(a.at("scale_rows.store_sectors_per_request").empty());
    CHECK(answers_in("").empty());
}

TEST_CASE("answers: within a quarter of hpclab's measure, and the message never shows it")
{
    AnswerAsked q;
    REQUIRE_FALSE(parse_answer_asked("scale_rows.load_sectors_per_request", q));
    CHECK_FALSE(answer_problem(q, "18", 18.2));
    CHECK_FALSE(answer_problem(q, "14", 18.2));   // 23 % off: read on another run, rounded
    CHECK_FALSE(answer_problem(q, "2.2e1", 18.2));
    const auto far = answer_problem(q, "4", 18.2);
    REQUIRE(far);
    CHECK(far->find("not within a quarter") != std::string::npos);
    CHECK(far->find("18") == std::string::npos);  // the measured value is the student's to find
    CHECK(answer_problem(q, "", 18.2)->find("no answer to scale_rows.load_sectors_per_request") != std::string::npos);
    CHECK(answer_problem(q, "about 18", 18.2)->find("not a number") != std::string::npos);
    CHECK(answer_problem(q, "18 sectors", 18.2)->find("not a number") != std::string::npos);
    CHECK(answer_problem(q, "nan", 18.2)->find("not a number") != std::string::npos);
}

TEST_CASE("answers: a lab's program as given is its skeleton, and its solution answers every question")
{
    for (const LabInfo& lab : test::catalog().labs()) {
        if (lab.answers.empty()) continue;
        CAPTURE(lab.id);
        const auto given = read_text_file(lab.answers_program);
        REQUIRE(given);
        CHECK(git_blob_id(*given) == lab.skeleton_blob);
        const auto solved = answers_in(read_text_file(lab.solution_source()).value_or(""));
        for (const AnswerAsked& q : lab.answers) {
            CAPTURE(q.key());
            CHECK(solved.count(q.key()) == 1);
            const auto unanswered = answers_in(*given);
            CHECK((!unanswered.count(q.key()) || unanswered.at(q.key()).empty()));
        }
    }
}
