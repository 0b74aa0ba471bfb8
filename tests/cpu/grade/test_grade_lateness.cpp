// Lateness costs points, never a verdict: days late from the instructor's
// CSV, the submission time against the (student's own) deadline, or the
// LMS's late mark; grace days, a penalty per day, a cap; the gradebook shows
// the raw points, the penalty and the final points, every row kept.
#include "grade/gradebook.h"
#include "grade/class_report.h"
#include "grade/lateness.h"
#include "intake/timestamp.h"
#include "course/course_config.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::int64_t at(const std::string& text)
{
    const auto t = parse_timestamp(text);
    REQUIRE(t);
    return *t;
}

LatenessPolicy policy(double per_day, double grace, double cap = 1)
{
    return {.given = true, .deadline = at("2026-11-20T23:59:00+01:00"), .deadline_text = "2026-11-20T23:59:00+01:00",
            .penalty_per_day = per_day, .grace_days = grace, .max_penalty = cap};
}

LmsStudent submitted(const std::string& text) { return {.submitted_at = at(text), .submitted_text = text}; }

// A book of two students, each passing vecadd3.add (6 points) and vecadd2.add (4).
struct TwoStudents {
    TaskResult pass {.task = "add", .verdict = Verdict::pass};
    Gradebook book;
    TwoStudents()
    {
        book.columns = {{&test::lab_of("vecadd3"), &test::task_of("vecadd3", "add"), 6},
                        {&test::lab_of("vecadd2"), &test::task_of("vecadd2", "add"), 4}};
        for (const std::string id : {"ada", "grace"}) {
            BookRow r {.student = id, .total = 10, .max = 10};
            r.cells = {{.state = BookCell::State::graded, .result = &pass, .earned = 6},
                       {.state = BookCell::State::graded, .result = &pass, .earned = 4}};
            book.rows.push_back(r);
        }
    }
};

}  // namespace

TEST_CASE("grade lateness: times as ISO 8601 and Gradescope write them, with their zone, and none without one")
{
    CHECK(at("2026-11-20T23:59:00Z") - at("2026-11-20T23:59:00+01:00") == 3600);
    CHECK(at("2026-11-20 14:59:00.123456 -0800") == at("2026-11-20T22:59:00Z"));
    CHECK(at("2026-11-20T22:59Z") == at("2026-11-20T22:59:00+00:00"));
    CHECK_FALSE(parse_timestamp("2026-11-20T23:59:00"));
    CHECK_FALSE(parse_timestamp("2026-11-20"));
    CHECK_FALSE(parse_timestamp("2026-13-20T23:59:00Z"));
}

TEST_CASE("grade lateness: days late from the time, the extension, the mark or the CSV, and grace days, a penalty per day, a cap")
{
    // 2 days and a minute late: 3 days, 1 of grace, 2 at 0.1 each.
    const LmsStudent two_days = submitted("2026-11-23T00:00:00+01:00");
    BookLateness l = lateness_of(policy(0.1, 1), nullptr, &two_days);
    CHECK(l.days == 3);
    CHECK(l.share == doctest::Approx(0.2));
    CHECK(contains(l.why, "submitted 2026-11-23T00:00:00+01:00"));
    CHECK(contains(l.why, "1 day of grace"));

    // The student's three-day extension covers it.
    const StudentDeadline extension {.extension_days = 3};
    CHECK(lateness_of(policy(0.1, 1), &extension, &two_days).days == 0);
    // The student's own deadline.
    const StudentDeadline own {.deadline = at("2026-11-22T23:59:00+01:00"), .deadline_text = "own"};
    CHECK(lateness_of(policy(0.1, 0), &own, &two_days).days == 1);

    // Canvas's mark alone: late_mark_days (1), which one grace day covers.
    const LmsStudent mark {.late_mark = true};
    CHECK(lateness_of(policy(0.1, 1), nullptr, &mark).share == 0);
    CHECK(lateness_of(policy(0.1, 0), nullptr, &mark).share == doctest::Approx(0.1));

    // The instructor's count wins, and the cap holds.
    const StudentDeadline counted {.days_late = 10};
    CHECK(lateness_of(policy(0.1, 0, 0.5), &counted, &two_days).share == doctest::Approx(0.5));

    // On time, and no policy at all: nothing.
    const LmsStudent on_time = submitted("2026-11-20T20:00:00+01:00");
    CHECK(lateness_of(policy(0.1, 0), nullptr, &on_time).days == 0);
    const BookLateness no_policy = lateness_of(LatenessPolicy {}, nullptr, &mark);
    CHECK(no_policy.share == 0);
    CHECK(contains(no_policy.why, "no lateness policy"));
}

TEST_CASE("grade lateness: the gradebook shows raw points, penalty and final, and verdicts and rows stay")
{
    TwoStudents t;
    const std::map<std::string, StudentDeadline> csv = {{"grace", {.days_late = 2}}, {"nobody", {.days_late = 1}}};
    const std::vector<std::string> unknown = apply_lateness(t.book, policy(0.1, 0), csv, {});
    CHECK(unknown == std::vector<std::string> {"nobody"});
    REQUIRE(t.book.rows.size() == 2);
    CHECK(t.book.rows[0].final_points() == 10);
    CHECK(t.book.rows[1].total == 10);
    CHECK(t.book.rows[1].late->penalty == doctest::Approx(2));
    CHECK(t.book.rows[1].final_points() == doctest::Approx(8));
    for (const BookRow& r : t.book.rows)
        for (const BookCell& c : r.cells) CHECK(cell_verdict(c) == "pass");

    const std::string csv_text = gradebook_csv(t.book, nullptr, nullptr);
    CHECK(contains(csv_text, "total,max,held,days late,late penalty,final,lateness\n"));
    CHECK(contains(csv_text, "grace,6,4,10,10,,2,2,8,days_late in the students' CSV\n"));
    CHECK(contains(csv_text, "ada,6,4,10,10,,0,0,10,\n"));

    CHECK(lateness_text(t.book.rows[1]) == "Late by 2 days (days_late in the students' CSV): 2 points off, 8 of 10 points in the end.");

    // report.md lists the late students, points before and after; none where the book shows no lateness.
    const std::string report = class_report_markdown(ClassFolder {}, t.book, {});
    CHECK(contains(report, "## Lateness"));
    CHECK(contains(report, "| grace | 2 | 2 | 10 | 8 | days\\_late in the students' CSV |"));
    CHECK_FALSE(contains(report, "| ada |"));

    TwoStudents none;
    apply_lateness(none.book, LatenessPolicy {}, {}, {});
    CHECK_FALSE(contains(gradebook_csv(none.book, nullptr, nullptr), "final"));
    CHECK_FALSE(contains(class_report_markdown(ClassFolder {}, none.book, {}), "## Lateness"));
}

TEST_CASE("grade lateness: the CSV and the config entry are read, or refused naming the file, the row and the cell")
{
    const TempDir d;
    const auto rows = read_student_deadlines(d.write("ext.csv", "Student,Deadline,Extension_days,days_late\n"
                                                                "ada,2026-11-22T23:59:00+01:00,,\n"
                                                                "grace,,2,\n"
                                                                "alan,,,4\n"));
    CHECK(rows.at("ada").deadline == at("2026-11-22T23:59:00+01:00"));
    CHECK(rows.at("grace").extension_days == 2);
    CHECK(rows.at("alan").days_late == 4);
    CHECK_THROWS_WITH_AS(read_student_deadlines(d.write("bad.csv", "student,deadline\nada,Friday\n")),
                         doctest::Contains("row 2: deadline 'Friday' is not a date and time with its zone"), std::runtime_error);
    CHECK_THROWS_WITH_AS(read_student_deadlines(d.write("none.csv", "name,deadline\n")),
                         doctest::Contains("no \"student\" column"), std::runtime_error);

    const fs::path config = d.path() / "course-config.json";
    const LatenessPolicy p = parse_lateness_policy(
        nlohmann::json::parse(R"({"deadline": "2026-11-20T23:59:00+01:00", "penalty_per_day": 0.1, "grace_days": 1,
                                  "students": "ext.csv"})"),
        config);
    CHECK(p.given);
    CHECK(p.students == d.path() / "ext.csv");
    CHECK_THROWS_WITH_AS(parse_lateness_policy(nlohmann::json::parse(R"({"penalty_per_day": 2})"), config),
                         doctest::Contains("penalty_per_day: must be a share"), CourseConfigError);
    CHECK_THROWS_WITH_AS(parse_lateness_policy(nlohmann::json::parse(R"({"deadline": "Friday"})"), config),
                         doctest::Contains("deadline: must be a date and time"), CourseConfigError);
    CHECK_THROWS_WITH_AS(parse_lateness_policy(nlohmann::json::parse(R"({"late": 1})"), config),
                         doctest::Contains("unknown entry 'late'"), CourseConfigError);
}

TEST_CASE("grade lateness: a students' CSV hpclab cannot read is refused before anything is graded, naming the cell")
{
    const TempDir d;
    d.write("class/ada/vecadd3.cu", "__global__ void add() {}\n");
    d.write("ext.csv", "student,extension_days\nada,two\n");
    const fs::path config = d.write("course-config.json", R"({"lateness": {"penalty_per_day": 0.1, "students": "ext.csv"}})");
    const ProcessResult r = test::run_hpclab({"grade", (d.path() / "class").string(), "--out", (d.path() / "grades").string(),
                                              "--config", config.string()},
                                             true, 60);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "row 2: extension_days 'two' is not a number of days"));
    CHECK_FALSE(fs::exists(d.path() / "grades" / "results"));
}
