// The leaderboard: only files that passed the task, ranked by the parent's
// own times, ties inside the noise (the middle halves of two files' calls
// overlap), a table per GPU, pseudonyms by default.
#include "grade/gradebook.h"
#include "grade/grading_config.h"
#include "grade/leaderboard.h"
#include "timed_results.h"
#include "util/escape.h"

#include <doctest/doctest.h>

#include <regex>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::named_gpu;
using hpclab::test::TempDir;
using hpclab::test::timed_result;
using hpclab::test::TimedTask;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A class whose students each hand in matmul.cu, graded with the tasks given.
struct TimedClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<LabResult> results;

    explicit TimedClass(const std::map<std::string, std::map<std::string, TimedTask>>& students,
                        const std::map<std::string, std::string>& gpu_of = {})
    {
        for (const auto& [id, tasks] : students) dir.write(id + "/matmul.cu", "// " + id + "'s matmul\n");
        cls = discover_class(dir.path(), catalog());
        for (const Student& s : cls.students) {
            const auto gpu = gpu_of.find(s.id);
            results.push_back(timed_result(s.id, s.submissions.at(0), students.at(s.id),
                                           named_gpu(gpu == gpu_of.end() ? "NVIDIA H100 80GB HBM3" : gpu->second)));
        }
    }
    Gradebook book() const { return make_gradebook(cls, results, catalog(), {}); }
};

const LeaderboardTable* table(const Leaderboard& b, const std::string& task, const std::string& gpu_part)
{
    for (const LeaderboardTable& t : b.tables)
        if (t.task == task && has(t.gpu, gpu_part)) return &t;
    return nullptr;
}

std::vector<std::string> order_of(const LeaderboardTable& t)
{
    std::vector<std::string> out;
    for (const LeaderboardEntry& e : t.entries) out.push_back(e.student + " " + std::to_string(e.rank) + (e.tied ? "=" : ""));
    return out;
}

const TimedTask fast {Verdict::pass, {1.00, 1.01, 1.02, 1.03}};    // middle half 1.0075 to 1.0225
const TimedTask as_fast {Verdict::pass, {1.01, 1.02, 1.03, 1.04}}; // 1.0175 to 1.0325: overlaps fast's
const TimedTask slow {Verdict::pass, {2.0, 2.1, 2.2, 2.3}};
const TimedTask fastest_but_too_slow {Verdict::too_slow, {0.1, 0.1, 0.1, 0.1}};  // a verdict other than pass

}  // namespace

TEST_CASE("leaderboard: only passing files, ahead only beyond the noise, ties by name, a table per GPU")
{
    const TimedClass c({{"ada", {{"naive", fast}, {"tiled", fast}}},
                        {"ben", {{"naive", fast}, {"tiled", as_fast}}},
                        {"cee", {{"naive", fast}, {"tiled", slow}}},
                        {"dee", {{"naive", slow}, {"tiled", fastest_but_too_slow}}},
                        {"eve", {{"naive", fast}, {"tiled", slow}}}},
                       {{"eve", "NVIDIA A100-SXM4-40GB"}});
    const Gradebook book = c.book();
    const Leaderboard board = make_leaderboard(book, CellResults(c.results), 7, "ids");

    const LeaderboardTable* tiled = table(board, "matmul.tiled", "H100");
    REQUIRE(tiled != nullptr);
    CHECK(tiled->gpu == "NVIDIA H100 80GB HBM3, CUDA driver 13.0");
    CHECK(order_of(*tiled) == std::vector<std::string> {"ada 1=", "ben 1=", "cee 3"});  // dee did not pass: never on it
    CHECK(tiled->entries[0].median_ms == doctest::Approx(1.015));
    CHECK(tiled->entries[0].low_ms == doctest::Approx(1.0075));
    CHECK(tiled->entries[0].calls == 4);
    const LeaderboardTable* on_a100 = table(board, "matmul.tiled", "A100");
    REQUIRE(on_a100 != nullptr);
    CHECK(order_of(*on_a100) == std::vector<std::string> {"eve 1"});  // not ranked against the H100's files
    const LeaderboardTable* naive = table(board, "matmul.naive", "H100");
    REQUIRE(naive != nullptr);
    CHECK(order_of(*naive) == std::vector<std::string> {"ada 1=", "ben 1=", "cee 1=", "dee 4"});

    const std::string md = leaderboard_markdown(board);
    CHECK(has(md, "### matmul.tiled on NVIDIA H100 80GB HBM3, CUDA driver 13.0"));
    CHECK(has(md, "| 1= | ada | 1.015 | "));
    CHECK(has(md, "| 3 | cee |"));
    CHECK_FALSE(has(md.substr(md.find("### matmul.tiled on NVIDIA H100")), "| dee |"));

    const nlohmann::json ada = gradescope_leaderboard(board, "ada");
    REQUIRE(ada.size() == 6);  // rank, time and GPU of naive and of tiled
    CHECK(ada[3] == nlohmann::json {{"name", "matmul.tiled rank"}, {"value", 1}, {"order", "asc"}});
    CHECK(ada[5]["value"] == "NVIDIA H100 80GB HBM3, CUDA driver 13.0");
    CHECK(gradescope_leaderboard(board, "dee").size() == 3);  // naive only
    CHECK(has(leaderboard_feedback(board, "ben"), "matmul.tiled: rank 1 of 3 (tied"));
}

TEST_CASE("leaderboard: pseudonyms are stable, keyed by the course seed, and each student finds their own")
{
    const std::string p = leaderboard_pseudonym("s-ada", 20261123);
    CHECK(std::regex_match(p, std::regex("p-[0-9a-f]{10}")));
    CHECK(p == leaderboard_pseudonym("s-ada", 20261123));
    CHECK(p != leaderboard_pseudonym("s-ada", 20261124));
    CHECK(p != leaderboard_pseudonym("s-ben", 20261123));

    const TimedClass c({{"s-ada", {{"tiled", fast}}}, {"s-ben", {{"tiled", slow}}}});
    const Leaderboard board = make_leaderboard(c.book(), CellResults(c.results), 20261123, "pseudonyms");
    const std::string md = leaderboard_markdown(board);
    CHECK_FALSE(has(md, "s-ada"));
    CHECK_FALSE(has(md, "s-ben"));
    CHECK(has(md, "| 1 | " + p + " |"));
    CHECK(has(leaderboard_feedback(board, "s-ada"), "listed as **" + for_markdown(p) + "**"));
    CHECK_FALSE(has(leaderboard_feedback(board, "s-ada"), leaderboard_pseudonym("s-ben", 20261123)));
}

TEST_CASE("leaderboard: names escaped, a pass with nothing to rank listed with why, and off means none")
{
    TimedClass c({{"a_b_c", {{"naive", fast}, {"tiled", fast}}}, {"dan", {{"naive", fast}, {"tiled", slow}}}});
    REQUIRE(c.results.size() == 2);
    REQUIRE(c.results[1].record["tasks"][1]["task"] == "tiled");
    c.results[1].record["tasks"][1].erase("timing");
    const Gradebook book = c.book();
    const Leaderboard board = make_leaderboard(book, CellResults(c.results), 1, "ids");
    const std::string md = leaderboard_markdown(board);
    CHECK(has(md, "| 1 | a\\_b\\_c |"));
    REQUIRE(board.unranked.size() == 1);
    CHECK(has(board.unranked[0], "dan, matmul.tiled: its grade record holds no timed call"));

    const Leaderboard off = make_leaderboard(book, CellResults(c.results), 1, "off");
    CHECK(off.tables.empty());
    CHECK(gradescope_leaderboard(off, "dan").empty());
    CHECK(leaderboard_feedback(off, "dan").empty());
    CHECK(has(leaderboard_markdown(off), "Off"));
}

TEST_CASE("leaderboard: the course config chooses pseudonyms, ids or off, and refuses anything else")
{
    const TempDir d;
    CHECK(read_grading_config(d.write("none.json", "{}"), catalog()).leaderboard == "pseudonyms");
    CHECK(read_grading_config(d.write("ids.json", R"({"leaderboard": "ids"})"), catalog()).leaderboard == "ids");
    CHECK(read_grading_config(d.write("off.json", R"({"leaderboard": "off"})"), catalog()).leaderboard == "off");
    for (const char* bad : {R"({"leaderboard": "names"})", R"({"leaderboard": true})"})
        CHECK_THROWS_WITH_AS(read_grading_config(d.write("bad.json", bad), catalog()),
                             doctest::Contains("leaderboard: must be \"pseudonyms\", \"ids\" or \"off\""), CourseConfigError);
}
