// The course config's thresholds: read, validated against the labs, written
// back with every other entry kept, and put in effect in the catalog (the
// one place a task's threshold is decided).
#include "course/course_config.h"
#include "grade/grading_config.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

TEST_CASE("course config: thresholds written and read back, every other entry kept")
{
    const TempDir d;
    const fs::path file = d.write("course-config.json", R"({"seed": 7, "points": {"hello": 0.5}})");
    const CourseThresholds t = {{"reduction", {{"atomic", 0.22}, {"tree", 0.55}}}, {"vecadd3", {{"add", 0.7}}}};
    write_course_thresholds(file, t);
    CHECK(read_course_thresholds(file, catalog()) == t);
    const GradingConfig g = read_grading_config(file, catalog());
    CHECK(g.seed == 7u);
    CHECK(g.points.at("hello") == 0.5);
    CHECK(g.thresholds == t);

    write_course_thresholds(file, {});  // no thresholds left: the entry goes, the rest stays
    CHECK_FALSE(test::contains(read_text_file(file).value(), "thresholds"));
    CHECK(read_grading_config(file, catalog()).seed == 7u);

    const fs::path fresh = d.path() / "sub" / "new.json";  // none yet: a new file
    CHECK(read_course_thresholds(fresh, catalog()).empty());
    write_course_thresholds(fresh, t);
    CHECK(read_course_thresholds(fresh, catalog()) == t);
}

TEST_CASE("course config: a threshold must be a positive number of a known lab's task that has one")
{
    const TempDir d;
    const auto fails = [&](const std::string& text, const std::string& why) {
        CAPTURE(text);
        const fs::path file = d.write("course-config.json", text);
        CHECK_THROWS_WITH_AS(read_course_thresholds(file, catalog()), doctest::Contains(why.c_str()), CourseConfigError);
        // The grading reads the same entry the same way.
        CHECK_THROWS_WITH_AS(read_grading_config(file, catalog()), doctest::Contains(why.c_str()), CourseConfigError);
    };
    fails(R"({"thresholds": {"vecadd3": {"add": 0}}})", "vecadd3.add: must be a positive number");
    fails(R"({"thresholds": {"vecadd3": {"add": -0.5}}})", "must be a positive number");
    fails(R"({"thresholds": {"vecadd3": {"add": "0.5"}}})", "must be a positive number");
    fails(R"({"thresholds": {"vecadd3": {"add": true}}})", "must be a positive number");
    fails(R"({"thresholds": {"vecad3": {"add": 0.5}}})", "Did you mean 'vecadd3'?");
    fails(R"({"thresholds": {"matmul": {"tiles": 1.3}}})", "Did you mean 'tiled'?");
    fails(R"({"thresholds": {"hello": {"hello": 1}}})", "hello.hello has no speed threshold in lab.json");
    fails(R"({"thresholds": {"vecadd3": 0.5}})", "must map a lab to its tasks' thresholds");
    fails(R"({"thresholds": [1]})", "must map a lab");
    fails("[1, 2]", "must be a JSON object");
    fails("{oops", "not valid JSON");
}

TEST_CASE("course config: its default place is the course folder, and grade's --config replaces it")
{
    const TempDir d;
    CHECK(default_course_config(d.path()) == d.path() / "course-config.json");
    CHECK(grading_config_file("", d.path()).empty());  // none there: the defaults
    d.write("course-config.json", "{}");
    CHECK(grading_config_file("", d.path()) == d.path() / "course-config.json");
    CHECK(grading_config_file(d.path() / "mine.json", d.path()) == d.path() / "mine.json");
}

TEST_CASE("catalog: the course config's thresholds are the ones in effect, lab.json's where it names none")
{
    Catalog c = catalog();
    const auto threshold = [&](const char* lab, const char* task) { return *c.find(lab)->find_task(task)->threshold; };
    const double shipped = threshold("reduction", "tree").min_speedup;
    c.use_course_thresholds({{"reduction", {{"atomic", 0.22}}}}, "/course/course-config.json");
    CHECK(threshold("reduction", "atomic").min_speedup == 0.22);
    CHECK(threshold("reduction", "atomic").shipped == catalog().find("reduction")->find_task("atomic")->threshold->min_speedup);
    CHECK(threshold("reduction", "atomic").set_by == "/course/course-config.json");
    CHECK(threshold("reduction", "tree").min_speedup == shipped);
    CHECK(threshold("reduction", "tree").set_by.empty());

    c.use_course_thresholds({}, "/other.json");  // another config replaces it whole
    CHECK(threshold("reduction", "atomic").min_speedup == threshold("reduction", "atomic").shipped);
    CHECK(threshold("reduction", "atomic").set_by.empty());
    CHECK_THROWS_AS(c.use_course_thresholds({{"hello", {{"hello", 1}}}}, "x.json"), CatalogError);
}
