// Reading lab.json: a valid record loads; every kind of mistake is refused
// with a message that names the file and the field.
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::TempDir;

namespace {

const char* kValid = R"({
  "id": "demo", "order": 1, "title": "Demo", "teaches": "t", "course_program": "demo.cu",
  "student_file": "demo.cu", "header": "demo.h", "pointers": "device",
  "params": {"n": {"help": "length", "min": 1, "max": 100}},
  "hints": ["gentle", "explicit"],
  "tasks": [{"id": "add", "entry": "add", "title": "adds", "tolerance": {"kind": "exact"},
             "sizes": [{"n": 1, "why": "one"}, {"n": 100, "why": "all", "big": true}],
             "demo": {"n": 10}, "timing": {"reps": 3},
             "threshold": {"baseline": "reference", "min_speedup": 0.5}}],
  "limits": {"wall_s": 5}
})";

// kValid with one substring replaced.
std::string variant(const std::string& from, const std::string& to)
{
    std::string s = kValid;
    const auto pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    s.replace(pos, from.size(), to);
    return s;
}

std::string load_error(const std::string& json)
{
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json", json);
    try {
        Catalog::load_lab(dir.path(), file);
    } catch (const CatalogError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("catalog: a complete lab.json loads with every field")
{
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json", kValid);
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    CHECK(lab.id == "demo");
    CHECK(lab.params.size() == 1);
    CHECK(lab.params[0].max == 100);
    REQUIRE(lab.tasks.size() == 1);
    const TaskInfo& t = lab.tasks[0];
    CHECK(t.sizes.size() == 2);
    CHECK(t.sizes[1].big);
    CHECK_FALSE(t.sizes[0].big);
    CHECK(t.demo.at("n") == 10);
    CHECK(t.timing_reps == 3);
    REQUIRE(t.threshold);
    CHECK(t.threshold->min_speedup == doctest::Approx(0.5));
    CHECK_FALSE(t.threshold->calibrated);
    CHECK(lab.wall_limit_s == doctest::Approx(5));
    CHECK(lab.solution_source() == dir.path() / "solutions" / "demo" / "demo.cu");
    // No speed baseline named: the solution is the baseline.
    CHECK(lab.speed_baseline.empty());
    CHECK(lab.baseline_source == lab.solution_source());
}

TEST_CASE("catalog: a named speed baseline is a file of bench/<lab>/, and feedback keys are verdicts")
{
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json", variant("\"pointers\": \"device\",",
                                                              "\"pointers\": \"device\", \"speed_baseline\": \"tuned\","));
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    CHECK(lab.speed_baseline == "tuned");
    CHECK(lab.baseline_source == dir.path() / "bench" / "demo" / "tuned.cu");
    CHECK(load_error(variant("\"pointers\": \"device\",", "\"pointers\": \"device\", \"speed_baseline\": \"../x\","))
              .find(".speed_baseline") != std::string::npos);
    CHECK(load_error(variant("\"limits\"", "\"feedback\": {\"wrong_anwser\": \"typo\"}, \"limits\""))
              .find("wrong_anwser: is not the name of a verdict") != std::string::npos);
}

TEST_CASE("catalog: measured answers name the program as given and ask a timed task's numeric measures")
{
    const auto with = [](const std::string& answers) {
        return variant("\"limits\"", "\"answers\": " + answers + ", \"limits\"");
    };
    TempDir dir;
    const auto file =
        dir.write("labs/demo/lab.json", with(R"({"program": "given.cu", "questions": ["add.load_sectors_per_request"]})"));
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    REQUIRE(lab.answers.size() == 1);
    CHECK(lab.answers[0].key() == "add.load_sectors_per_request");
    CHECK(lab.answers_program == dir.path() / "labs" / "demo" / "given.cu");
    CHECK(contains(load_error(with(R"({"program": "given.cu", "questions": ["mul.load_sectors_per_request"]})")),
                   "\"mul\" is not a timed task of this lab"));
    CHECK(contains(load_error(with(R"({"program": "given.cu", "questions": ["add.top_stall"]})")),
                   "a name, not a number"));
    CHECK(contains(load_error(with(R"({"program": "given.cu", "questions": ["add.sectors"]})")), "not a measure"));
    CHECK(contains(load_error(with(R"({"program": "given.cu", "questions": []})")), "questions"));
    CHECK(contains(load_error(with(R"({"questions": ["add.load_sectors_per_request"]})")), "program"));
}

TEST_CASE("catalog: a lab's CUDA connections (1 unless it says) and the copies its trace must show")
{
    TempDir dir;
    const LabInfo plain = Catalog::load_lab(dir.path(), dir.write("labs/demo/lab.json", kValid));
    CHECK(plain.device_max_connections == 1);
    CHECK(plain.tasks[0].expect.shows.empty());

    const std::string streams = variant("\"limits\"", "\"device_max_connections\": 8, \"limits\"");
    const std::string asked = R"("threshold": {"baseline": "reference", "min_speedup": 0.5},
             "expect": {"shows": ["pinned_copies", {"fact": "copies_overlap_kernels", "from": {"n": 64}}]})";
    std::string json = streams;
    const std::string threshold = R"("threshold": {"baseline": "reference", "min_speedup": 0.5})";
    json.replace(json.find(threshold), threshold.size(), asked);
    const LabInfo lab = Catalog::load_lab(dir.path(), dir.write("labs/demo/lab.json", json));
    CHECK(lab.device_max_connections == 8);
    REQUIRE(lab.tasks[0].expect.shows.size() == 2);
    CHECK(lab.tasks[0].expect.asks(LessonFact::pinned_copies)->from.empty());
    CHECK(lab.tasks[0].expect.asks(LessonFact::copies_overlap_kernels)->from == Params {{"n", 64}});
    CHECK_FALSE(lab.tasks[0].expect.asks(LessonFact::launch_2d));

    CHECK(load_error(variant("\"limits\"", "\"device_max_connections\": 0, \"limits\""))
              .find("device_max_connections: must be between 1 and 32") != std::string::npos);
    std::string unknown = json;
    unknown.replace(unknown.find("{\"n\": 64}"), 9, "{\"m\": 64}");
    CHECK(load_error(unknown).find("shows[1].from.m: is not a parameter") != std::string::npos);
}

TEST_CASE("catalog: mistakes in lab.json are named by file and field")
{
    CHECK(load_error("{ not json").find("not valid JSON") != std::string::npos);
    CHECK(load_error(variant("\"title\": \"Demo\", ", "")).find(".title: missing") != std::string::npos);
    CHECK(load_error(variant("\"id\": \"demo\"", "\"id\": \"other\"")).find("the folder is \"demo\"") !=
          std::string::npos);
    CHECK(load_error(variant("\"pointers\": \"device\"", "\"pointers\": \"gpu\"")).find(".pointers") !=
          std::string::npos);
    CHECK(load_error(variant("{\"n\": 1, \"why\": \"one\"}", "{\"n\": 0, \"why\": \"one\"}"))
              .find("tasks[0].sizes[0].n: is 0, outside [1, 100]") != std::string::npos);
    CHECK(load_error(variant("{\"n\": 1, \"why\": \"one\"}", "{\"m\": 1, \"why\": \"one\"}"))
              .find("m: is not a parameter") != std::string::npos);
    CHECK(load_error(variant("\"kind\": \"exact\"", "\"kind\": \"close\"")).find("tolerance.kind") !=
          std::string::npos);
    CHECK(load_error(variant("\"baseline\": \"reference\"", "\"baseline\": \"nope\"")).find("baseline") !=
          std::string::npos);
    CHECK(load_error(variant("\"hints\": [\"gentle\", \"explicit\"]", "\"hints\": []")).find("hints") !=
          std::string::npos);
    CHECK(load_error(variant("\"reps\": 3", "\"reps\": 0")).find("timing.reps") != std::string::npos);
    CHECK(load_error(variant("\"demo\": {\"n\": 10}", "\"demo\": {}")).find("demo.n: missing") !=
          std::string::npos);
}

TEST_CASE("catalog: a task's technique is shared_memory or warp_shuffle, and its grid bound is not negative")
{
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json", variant("\"tolerance\"", "\"technique\": \"warp_shuffle\", "
                                                              "\"expect\": {\"shows\": [{\"fact\": \"grid_fills_gpu_once\", "
                                                              "\"blocks_per_sm\": 32}]}, \"tolerance\""));
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    CHECK(lab.tasks[0].technique == "warp_shuffle");
    CHECK(lab.tasks[0].expect.asks(LessonFact::grid_fills_gpu_once)->blocks_per_sm == 32);
    CHECK(load_error(variant("\"tolerance\"", "\"technique\": \"shuffles\", \"tolerance\"")).find(".technique") !=
          std::string::npos);
    CHECK(load_error(variant("\"tolerance\"", "\"expect\": {\"shows\": [{\"fact\": \"grid_fills_gpu_once\", "
                                                "\"blocks_per_sm\": -1}]}, \"tolerance\""))
              .find("grid_fills_gpu_once needs \"blocks_per_sm\", a positive integer") != std::string::npos);
}

TEST_CASE("catalog: a task's lesson facts are names of the one table, each refused by name where it is wrong")
{
    const auto shows = [](const std::string& list, const std::string& before = "") {
        return variant("\"tolerance\"", before + "\"expect\": {\"shows\": " + list + "}, \"tolerance\"");
    };
    // A refusal's fact: its task opts out of the invariant it contradicts.
    const std::string refusal = R"("opt_out": {"on_gpu": "a refusal launches nothing"}, )";
    // Every fact of the table is data a lab can name, with nothing else.
    for (const LessonFactInfo& f : lesson_fact_table()) {
        CAPTURE(f.name);
        const std::string entry = f.takes_blocks_per_sm
                                      ? fmt::format(R"([{{"fact": "{}", "blocks_per_sm": 4}}])", f.name)
                                      : fmt::format(R"(["{}"])", f.name);
        TempDir dir;
        const LabInfo lab = Catalog::load_lab(
            dir.path(), dir.write("labs/demo/lab.json", shows(entry, f.id == LessonFact::no_kernel ? refusal : "")));
        REQUIRE(lab.tasks[0].expect.asks(f.id));
        CHECK(lab.tasks[0].expect.shows.size() == 1);
    }
    CHECK(load_error(shows(R"(["lanch_2d"])")).find("shows[0]: must be a lesson fact's name") != std::string::npos);
    CHECK(load_error(shows(R"(["lanch_2d"])")).find("launch_2d") != std::string::npos);
    CHECK(load_error(shows(R"(["launch_2d", "launch_2d"])")).find("launch_2d is named twice") != std::string::npos);
    CHECK(load_error(shows(R"([{"fact": "printf_in_kernel", "from": {"n": 4}}])"))
              .find("shows[0].from: is for facts of a call") != std::string::npos);
    CHECK(load_error(shows(R"([{"fact": "launch_2d", "blocks_per_sm": 4}])"))
              .find("launch_2d takes no \"blocks_per_sm\"") != std::string::npos);
    CHECK(load_error(shows(R"(["no_kernel"])")).find("the task opts out of the invariant on_gpu too") != std::string::npos);
    CHECK(load_error(variant("\"tolerance\"", "\"expect\": {\"kernel\": false}, \"tolerance\""))
              .find("expect.kernel: is gone: a task that launches nothing writes \"shows\": [\"no_kernel\"]") !=
          std::string::npos);
    // A key that was one fact before "shows" is refused with the entry to write, not ignored.
    const std::string old = load_error(variant("\"tolerance\"", "\"expect\": {\"two_d\": true}, \"tolerance\""));
    CHECK(old.find("expect.two_d: is gone: write \"shows\": [\"launch_2d\"]") != std::string::npos);
    CHECK(load_error(variant("\"tolerance\"", "\"expect\": {\"max_blocks_per_sm\": 8}, \"tolerance\""))
              .find("grid_fills_gpu_once") != std::string::npos);
}

TEST_CASE("catalog: one_thread_per names a size parameter per dimension, x first")
{
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json", variant("\"tolerance\"", "\"expect\": {\"one_thread_per\": [\"n\"]}, \"tolerance\""));
    CHECK(Catalog::load_lab(dir.path(), file).tasks[0].expect.one_thread_per == std::vector<std::string> {"n"});
    for (const char* bad : {"[\"m\"]", "[]", "\"n\"", "[\"n\", \"n\", \"n\", \"n\"]", "[1]"})
        CHECK(load_error(variant("\"tolerance\"", std::string("\"expect\": {\"one_thread_per\": ") + bad + "}, \"tolerance\""))
                  .find("one_thread_per") != std::string::npos);
}

TEST_CASE("catalog: a lab's kind is one of the kinds' table, and its look score one of two forms")
{
    TempDir dir;
    const LabInfo plain = Catalog::load_lab(dir.path(), dir.write("labs/demo/lab.json", kValid));
    CHECK(plain.kind == LabKind::functions);
    CHECK(plain.kind_traits().harness_linked);
    CHECK(plain.no_look.starts_with("not measured"));
    const auto file = dir.write("labs/demo/lab.json", variant("\"pointers\": \"device\"",
                                                              "\"pointers\": \"device\", \"similarity\": {\"look_from\": 0.6}"));
    CHECK(Catalog::load_lab(dir.path(), file).look_from == 0.6);
    CHECK(load_error(variant("\"pointers\": \"device\"", "\"pointers\": \"device\", \"kind\": \"script\""))
              .find("kind: must be \"functions\" or \"program\"") != std::string::npos);
    for (const char* bad : {"{}", "{\"look_from\": 0.6, \"no_look\": \"why\"}", "{\"look_from\": 1.5}"})
        CHECK(load_error(variant("\"pointers\": \"device\"",
                                 std::string("\"pointers\": \"device\", \"similarity\": ") + bad))
                  .find("similarity.look_from") != std::string::npos);
}

TEST_CASE("catalog: a lab whose kind has no speed baseline program has no baseline source, and may not name one")
{
    for (const LabInfo& lab : hpclab::test::catalog().labs()) {
        CAPTURE(lab.id);
        CHECK(lab.baseline_source.empty() == !lab.kind_traits().baseline_program);
    }
    const auto program = hpclab::test::course_root() / "labs" / "program" / "lab.json";
    std::string json = read_text_file(program).value_or("");
    const std::string kind = R"("kind": "program",)";
    REQUIRE(json.find(kind) != std::string::npos);
    json.replace(json.find(kind), kind.size(), kind + R"( "speed_baseline": "tuned",)");
    TempDir dir;
    const auto file = dir.write("labs/program/lab.json", json);
    std::string error;
    try {
        Catalog::load_lab(dir.path(), file);
    } catch (const CatalogError& e) {
        error = e.what();
    }
    CHECK(error.find("speed_baseline: is for a lab whose tasks run at sizes") != std::string::npos);
}

TEST_CASE("catalog: a folder without labs/ is refused clearly")
{
    TempDir dir;
    try {
        Catalog::load(dir.path());
        FAIL("expected an error");
    } catch (const CatalogError& e) {
        CHECK(std::string(e.what()).find("no such folder") != std::string::npos);
    }
}

TEST_CASE("catalog: two labs with the same order are refused")
{
    TempDir dir;
    dir.write("labs/demo/lab.json", kValid);
    std::string other = variant("\"id\": \"demo\"", "\"id\": \"demo2\"");
    dir.write("labs/demo2/lab.json", other);
    CHECK_THROWS_WITH_AS(Catalog::load(dir.path()), doctest::Contains("same order"), CatalogError);
}

TEST_CASE("catalog: a lab-wide allow_libraries is refused: a task opts out of own_code, with its reason")
{
    CHECK(load_error(variant("\"limits\"", "\"allow_libraries\": true, \"limits\"")).find("opt_out") !=
          std::string::npos);
    // So is a task's "frees", replaced by the invariant releases.
    CHECK(load_error(variant("\"tolerance\"", "\"expect\": {\"frees\": true}, \"tolerance\""))
              .find("expect.frees: is gone: every task is held to the invariant \"releases\"") != std::string::npos);
    TempDir dir;
    const auto file = dir.write("labs/demo/lab.json",
                                variant("\"tolerance\"", "\"opt_out\": {\"own_code\": \"it asks for CUB\"}, \"tolerance\""));
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    const TaskInfo& t = lab.tasks[0];
    CHECK_FALSE(t.judged_by(Invariant::own_code));
    CHECK(t.opted_out.at(Invariant::own_code) == "it asks for CUB");
    CHECK(t.judged_by(Invariant::device_finishes));
}

TEST_CASE("catalog: the profiler's rules load in order, and a wrong one is refused with where it is")
{
    TempDir dir;
    const auto file = dir.write(
        "labs/demo/lab.json",
        variant("\"tasks\": [", "\"profile\": [{\"when\": \"sm_busy_pct < 25\", \"say\": \"busy {sm_busy_pct}%\"}], "
                                "\"tasks\": ["));
    const LabInfo lab = Catalog::load_lab(dir.path(), file);
    REQUIRE(lab.profile.size() == 1);
    CHECK(lab.profile[0].measure == "sm_busy_pct");
    CHECK(contains(load_error(variant("\"tasks\": [", "\"profile\": [{\"when\": \"busy < 25\", \"say\": \"x\"}], "
                                                      "\"tasks\": [")),
                   "lab.json.profile[0]: \"when\" names busy, which is no measure"));
    // A task without a threshold is never profiled: rules there are a mistake.
    CHECK(contains(load_error(variant("\"threshold\": {\"baseline\": \"reference\", \"min_speedup\": 0.5}",
                                      "\"profile\": [{\"when\": \"sm_busy_pct < 25\", \"say\": \"x\"}]")),
                   "no \"threshold\" here"));
}
