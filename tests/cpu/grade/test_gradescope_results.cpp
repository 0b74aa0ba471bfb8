// Each student's results.json as Gradescope's autograder reads it, checked
// against the fields and types of its published specification
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output
// format", and .../leaderboards/), written down here as a small schema: no
// network. The file checked is the one write_class_outputs leaves on disk.
#include "grade/class_grading.h"
#include "timed_results.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::named_gpu;
using hpclab::test::timed_result;
using hpclab::test::TempDir;
using nlohmann::json;

namespace {

// A field's type as the specification gives it; `one_of`: the values it lists.
struct Field {
    enum class Type { number, string, number_or_string, object, array } type;
    std::set<std::string> one_of = {};
};
using Schema = std::map<std::string, Field>;

const std::set<std::string> kVisibility {"hidden", "after_due_date", "after_published", "visible"};
const std::set<std::string> kFormat {"text", "simple_format", "html", "md", "ansi"};
using T = Field::Type;

const Schema kResults {
    {"score", {T::number}},           {"execution_time", {T::number}},          {"output", {T::string}},
    {"output_format", {T::string, kFormat}}, {"test_output_format", {T::string, kFormat}},
    {"test_name_format", {T::string, kFormat}}, {"visibility", {T::string, kVisibility}},
    {"stdout_visibility", {T::string, kVisibility}}, {"extra_data", {T::object}}, {"tests", {T::array}},
    {"leaderboard", {T::array}}};
const Schema kTest {
    {"score", {T::number}},     {"max_score", {T::number}}, {"status", {T::string, {"passed", "failed"}}},
    {"name", {T::string}},      {"name_format", {T::string, kFormat}}, {"number", {T::string}},
    {"output", {T::string}},    {"output_format", {T::string, kFormat}}, {"tags", {T::array}},
    {"visibility", {T::string, kVisibility}}, {"extra_data", {T::object}}};
const Schema kLeaderboardEntry {
    {"name", {T::string}}, {"value", {T::number_or_string}}, {"order", {T::string, {"asc", "desc"}}}};

bool has_type(const json& v, T type)
{
    switch (type) {
    case T::number: return v.is_number();
    case T::string: return v.is_string();
    case T::number_or_string: return v.is_number() || v.is_string();
    case T::object: return v.is_object();
    case T::array: return v.is_array();
    }
    return false;
}

void check_object(const json& j, const Schema& schema, const std::string& at, std::vector<std::string>& problems)
{
    if (!j.is_object()) return problems.push_back(at + ": not an object");
    for (const auto& [key, value] : j.items()) {
        const auto field = schema.find(key);
        if (field == schema.end()) problems.push_back(at + "." + key + ": not a field of the specification");
        else if (!has_type(value, field->second.type)) problems.push_back(at + "." + key + ": of the wrong type");
        else if (!field->second.one_of.empty() && !field->second.one_of.contains(value.get<std::string>()))
            problems.push_back(at + "." + key + ": '" + value.get<std::string>() + "' is not one of its values");
    }
}

// What in `j` the specification does not allow, one line each.
std::vector<std::string> spec_problems(const json& j)
{
    std::vector<std::string> problems;
    check_object(j, kResults, "results", problems);
    if (!j.is_object()) return problems;
    bool every_test_scored = j.contains("tests") && j["tests"].is_array();
    for (std::size_t i = 0; j.contains("tests") && j["tests"].is_array() && i < j["tests"].size(); ++i) {
        const json& t = j["tests"][i];
        check_object(t, kTest, "tests[" + std::to_string(i) + "]", problems);
        every_test_scored = every_test_scored && t.is_object() && t.contains("score");
        if (t.is_object() && t.contains("tags") && t["tags"].is_array())
            for (const json& tag : t["tags"])
                if (!tag.is_string()) problems.push_back("tests[" + std::to_string(i) + "].tags: not all strings");
    }
    if (!j.contains("score") && !every_test_scored) problems.push_back("results: no score, and not one on every test");
    for (std::size_t i = 0; j.contains("leaderboard") && j["leaderboard"].is_array() && i < j["leaderboard"].size(); ++i) {
        const json& e = j["leaderboard"][i];
        const std::string at = "leaderboard[" + std::to_string(i) + "]";
        check_object(e, kLeaderboardEntry, at, problems);
        if (e.is_object() && (!e.contains("name") || !e.contains("value"))) problems.push_back(at + ": a name and a value are required");
    }
    return problems;
}

struct GradedClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<LabResult> results;
};

const Submission& submission_of(const ClassFolder& cls, const std::string& student, const std::string& lab)
{
    for (const Student& s : cls.students)
        for (const Submission& sub : s.submissions)
            if (s.id == student && sub.lab->id == lab) return sub;
    throw std::logic_error("no " + lab + " of " + student);
}

json results_json(const TempDir& dir, const std::string& student)
{
    return json::parse(read_text_file(dir.path() / "out" / "students" / student / "results.json").value());
}

}  // namespace

TEST_CASE("results.json: the schema written from Gradescope's specification refuses what it does not allow")
{
    const json good = {{"score", 1}, {"tests", {{{"score", 1}, {"number", "1.1"}, {"visibility", "visible"}}}},
                       {"leaderboard", {{{"name", "t"}, {"value", 2}, {"order", "asc"}}}}};
    CHECK(spec_problems(good).empty());
    json bad = good;
    bad["tests"][0]["number"] = 1.1;  // a number, not the string the specification shows
    bad["tests"][0]["visibility"] = "students";
    bad["tests"][0]["runtime"] = 3;
    bad["leaderboard"][0]["order"] = "up";
    bad["leaderboard"].push_back({{"value", 1}});
    bad["execution_time"] = "136";
    const auto problems = spec_problems(bad);
    CHECK(problems.size() == 6);
    json unscored = {{"tests", {{{"name", "a"}}}}};
    CHECK(spec_problems(unscored) == std::vector<std::string> {"results: no score, and not one on every test"});
}

TEST_CASE("results.json: as Gradescope reads it, each test numbered by lab and task, with the checks' own seconds")
{
    GradedClass g;
    g.dir.write("class/ada/reduction.cu", "// ada's reduction\n");
    g.dir.write("class/ada/vecadd3.cu", "// ada's vecadd3\n");
    g.dir.write("class/ben/vecadd3.cu", "// ben's vecadd3\n");
    g.cls = discover_class(g.dir.path() / "class", catalog());
    const GpuInfo h100 = named_gpu("NVIDIA H100 80GB HBM3");
    g.results = {
        timed_result("ada", submission_of(g.cls, "ada", "reduction"),
                     {{"tree", {Verdict::pass, {1.0, 1.1, 1.2}}}, {"atomic", {Verdict::too_slow, {3.0, 3.1}}}}, h100, 12.25),
        timed_result("ada", submission_of(g.cls, "ada", "vecadd3"), {{"add", {Verdict::pass, {0.5, 0.6}}}}, h100, 30.5),
        timed_result("ben", submission_of(g.cls, "ben", "vecadd3"), {{"add", {Verdict::wrong_answer, {}}}}, h100, 7),
    };
    const GradeFolder out(g.dir.path() / "out");
    write_class_outputs(out, g.cls, g.results, catalog(), GradingConfig {}, GradingSettings {.seed = 42});

    const json ada = results_json(g.dir, "ada");
    CHECK(spec_problems(ada).empty());
    std::map<std::string, std::string> number_of;  // "reduction / tree: ..." -> "9.2"
    for (const json& t : ada["tests"]) {
        const std::string name = t["name"];
        number_of[name.substr(0, name.find(':'))] = t["number"];
    }
    CHECK(number_of["vecadd3 / add"] == "5.1");    // vecadd3 is lab 5; add its first task
    CHECK(number_of["reduction / naive"] == "9.1");
    CHECK(number_of["reduction / tree"] == "9.2");
    CHECK(number_of["reduction / atomic"] == "9.3");
    CHECK(ada["execution_time"] == 42.75);         // both checks' own seconds
    for (const json& t : ada["tests"]) CHECK(t["extra_data"]["execution_time"] == (t["number"] == "5.1" ? 30.5 : 12.25));
    CHECK(ada.contains("leaderboard"));            // passed two timed tasks

    const json ben = results_json(g.dir, "ben");
    CHECK(spec_problems(ben).empty());
    CHECK_FALSE(ben.contains("leaderboard"));      // nothing passed: not on it
    CHECK(ben["tests"].size() == 4);               // every column of the class, the labs ben did not hand in too
    CHECK(ben["tests"][3]["status"] == "failed");
}
