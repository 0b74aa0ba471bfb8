// hpclab grade's parts that need no GPU: what a class's folder holds and
// what is left out, the course's config, the seeds, the roster, the
// gradebook's marks, the CSV, the Slurm script, the lock and the writes.
#include "intake/class_folder.h"
#include "grade/class_grading.h"
#include "grade/grade_folder.h"
#include "grade/gradebook.h"
#include "grade/grading_config.h"
#include "intake/roster.h"
#include "grade/class_chunks.h"
#include "grade/student_report.h"
#include "grade_helpers.h"
#include "test_support.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::why_ignored;
using hpclab::test::lab_of;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

const Student* student(const ClassFolder& c, const std::string& id)
{
    for (const Student& s : c.students)
        if (s.id == id) return &s;
    return nullptr;
}

std::string skeleton(const std::string& lab) { return read_text_file(lab_of(lab).student_source()).value(); }

LabResult result(const std::string& student, const std::string& lab, std::uint64_t hash,
                 std::vector<std::pair<std::string, Verdict>> tasks)
{
    LabResult r {.student = student, .lab = lab, .content_hash = hash};
    for (auto& [t, v] : tasks) r.tasks.push_back({.task = t, .verdict = v, .message = "because"});
    r.overall = r.tasks.empty() ? Verdict::pass : r.tasks.front().verdict;
    return r;
}

}  // namespace

TEST_CASE("grade: both layouts are found, and every file left out is named with why")
{
    const TempDir d;
    d.write("ada/vecadd3.cu", "// ada's vecadd3\n");                         // loose
    d.write("ben/labs/stencil/stencil.cu", "// ben's stencil\n");            // a copy of labs/
    d.write("ben/labs/stencil/lab.json", "{}");                              // the copy's other files: left alone
    d.write("ben/labs/vecadd3/vecadd3.cu", skeleton("vecadd3"));             // handed back untouched
    d.write("cy/empty/hello.cu", "x");                                       // not where hello.cu goes
    d.write("cy/hello.cu", "");                                              // empty
    d.write("cy/stencil.cu", std::string("a\0b", 3));                        // binary
    d.write("cy/mine.cu", "// a file of no lab\n");
    d.write("cy/matmul.cu", std::string(kMaxSubmissionBytes + 1, 'x'));      // huge
    d.write("dee/reduction.cu", "// one\n");
    d.write("dee/labs/reduction/reduction.cu", "// two\n");                  // two files for one lab
    d.write("loose.cu", "// outside any student's folder\n");
    fs::create_directories(d.path() / "bad name");
    fs::create_directories(d.path() / ".git");
    fs::create_symlink("/etc/passwd", d.path() / "ada" / "rotation.cu");
    fs::create_directory_symlink(d.path() / "ada", d.path() / "eve");

    const ClassFolder c = discover_class(d.path(), catalog());
    REQUIRE(c.students.size() == 4);  // ada, ben, cy, dee: sorted, .git and the bad name left out
    CHECK(c.students[0].id == "ada");
    CHECK(c.students[3].id == "dee");
    REQUIRE(student(c, "ada")->submissions.size() == 1);
    CHECK(student(c, "ada")->submissions[0].lab->id == "vecadd3");
    const Student* ben = student(c, "ben");
    REQUIRE(ben->submissions.size() == 2);  // course order: vecadd3 before stencil
    CHECK(ben->submissions[0].lab->id == "vecadd3");
    CHECK(ben->submissions[0].unchanged_skeleton);
    CHECK_FALSE(ben->submissions[1].unchanged_skeleton);
    CHECK(student(c, "cy")->submissions.empty());
    CHECK(student(c, "dee")->submissions.empty());
    CHECK(c.left_alone == std::vector<fs::path> {"ben/labs/stencil/lab.json"});

    CHECK(has(why_ignored(c, "ada/rotation.cu"), "symbolic link"));
    CHECK(has(why_ignored(c, "eve"), "symbolic link"));
    CHECK(has(why_ignored(c, "bad name"), "folder name"));
    CHECK(has(why_ignored(c, "cy/empty/hello.cu"), "not where hello.cu goes"));
    CHECK(has(why_ignored(c, "cy/hello.cu"), "empty"));
    CHECK(has(why_ignored(c, "cy/stencil.cu"), "binary"));
    CHECK(has(why_ignored(c, "cy/mine.cu"), "not a lab's file"));
    CHECK(has(why_ignored(c, "cy/matmul.cu"), "too large"));
    CHECK(has(why_ignored(c, "dee/reduction.cu"), "2 files for reduction"));
    CHECK(has(why_ignored(c, "dee/labs/reduction/reduction.cu"), "2 files for reduction"));
    CHECK(has(why_ignored(c, "loose.cu"), "outside any student's folder"));
    CHECK(has(why_ignored(c, ".git"), "hidden folder"));  // a tool's folder is nobody's work, and said so

    CHECK_THROWS_WITH_AS(discover_class(d.path() / "nowhere", catalog()), doctest::Contains("not a folder"),
                         std::runtime_error);
}

TEST_CASE("grade: the course's config weighs tasks and verdicts, and names what is wrong in it")
{
    const TempDir d;
    const GradingConfig c = read_grading_config(
        d.write("c.json", R"({"seed": 7, "points": {"matmul.tiled": 3, "hello": 0.5}, "credit": {"too_slow": 0.5}})"),
        catalog());
    const LabInfo& matmul = lab_of("matmul");
    CHECK(c.seed == 7u);
    CHECK(c.points_of(matmul, *matmul.find_task("tiled")) == 3);
    CHECK(c.points_of(matmul, *matmul.find_task("naive")) == matmul.find_task("naive")->points);
    CHECK(c.points_of(lab_of("hello"), lab_of("hello").tasks.front()) == 0.5);
    CHECK(c.credit_of(Verdict::pass) == 1);
    CHECK(c.credit_of(Verdict::too_slow) == 0.5);
    CHECK(c.credit_of(Verdict::wrong_answer) == 0);

    const auto fails = [&](const std::string& text, const std::string& why) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS(read_grading_config(d.write("bad.json", text), catalog()), doctest::Contains(why.c_str()),
                             std::runtime_error);
    };
    fails(R"({"points": {"matmull": 2}})", "no lab matmull");
    fails(R"({"points": {"matmul.tiles": 2}})", "tiled");
    fails(R"({"points": {"matmul": -1}})", "0 or more");
    fails(R"({"credit": {"slow": 0.5}})", "no verdict");
    fails(R"({"credit": {"too_slow": 2}})", "between 0 and 1");
    fails(R"({"seeds": 1})", "unknown entry 'seeds'");
    fails("{not json", "not valid JSON");
    CHECK_THROWS_WITH_AS(read_grading_config(d.path() / "none.json", catalog()), doctest::Contains("cannot be read"),
                         std::runtime_error);
}

TEST_CASE("grade: a seed per student and lab, the same on every run")
{
    CHECK(submission_seed(1, "ada", "vecadd3") == submission_seed(1, "ada", "vecadd3"));
    CHECK(submission_seed(1, "ada", "vecadd3") != submission_seed(2, "ada", "vecadd3"));
    CHECK(submission_seed(1, "ada", "vecadd3") != submission_seed(1, "ben", "vecadd3"));
    CHECK(submission_seed(1, "ada", "vecadd3") != submission_seed(1, "ada", "stencil"));
    CHECK(submission_seed(1, "ada", "vecadd3") < (1ull << 53));
}

TEST_CASE("grade: CSV as LMSs write it, and fields hpclab writes that a spreadsheet would run as formulas stay text")
{
    const auto rows = parse_csv("\xEF\xBB\xBFname,\"Doe, Jane\"\r\n\"a \"\"b\"\"\",\"two\nlines\"\nlast,");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0] == CsvRow {"name", "Doe, Jane"});
    CHECK(rows[1] == CsvRow {"a \"b\"", "two\nlines"});
    CHECK(rows[2] == CsvRow {"last", ""});
    CHECK(parse_csv(csv_line({"x,y", "q\"", for_csv("=cmd()"), for_csv("-1.5"), for_csv("@x")})) ==
          std::vector<CsvRow> {{"x,y", "q\"", "'=cmd()", "-1.5", "'@x"}});
    CHECK(parse_csv(csv_line({"+1@x", "=2+3", "a;b"})) == std::vector<CsvRow> {{"+1@x", "=2+3", "a;b"}});  // as it came
    CHECK(parse_csv("a;\"b;c\"\n1;2\n", ';') == std::vector<CsvRow> {{"a", "b;c"}, {"1", "2"}});
}

TEST_CASE("grade: a roster keys the rows by its identity columns, and unmatched and ambiguous are reported")
{
    const TempDir d;
    // As Canvas exports it: a "Points Possible" row that names nobody.
    const fs::path file = d.write("roster.csv",
                                  "Student,ID,SIS Login ID,Section\n"
                                  "    Points Possible,,,\n"
                                  "\"Lovelace, Ada\",101,ada@uni.edu,A\n"
                                  "\"Babbage, Charles\",102,cb,A\n"
                                  "\"Noether, Emmy\",103,emmy,B\n"
                                  "\"Twin, One\",104,twin,B\n"
                                  "\"Twin, Two\",105,twin,B\n");
    const Roster r = read_roster(file, {});
    CHECK(r.rows.size() == 5);
    CHECK(r.keys.size() == 3);  // Student, ID, SIS Login ID
    const RosterMatch m = match_roster(r, {"ada", "CB", "twin", "zed", "102"});
    CHECK(m.row_of.at("ada") == 0);  // the email's part before the @
    CHECK_FALSE(m.row_of.count("CB"));  // CB and 102 both name Babbage's row
    CHECK(m.ambiguous.count("CB"));
    CHECK(m.ambiguous.count("102"));
    CHECK(m.ambiguous.at("twin").size() == 2);
    CHECK(m.unmatched == std::vector<std::string> {"zed"});
    CHECK(m.rows_without_submission == 4);

    const Roster by_section = read_roster(file, {"SIS Login ID"});
    CHECK(by_section.keys.size() == 1);
    CHECK_THROWS_WITH_AS(read_roster(d.write("r2.csv", "Name,Mark\nx,1\n"), {}), doctest::Contains("--roster-key"),
                         std::runtime_error);
}

TEST_CASE("grade: the gradebook gives each task its points times its verdict's credit, and holds what a person must see")
{
    const TempDir d;
    d.write("ada/vecadd3.cu", "// ada\n");
    d.write("ada/matmul.cu", "// ada's matmul\n");
    d.write("ben/vecadd3.cu", "// ben\n");
    d.write("cy/vecadd3.cu", skeleton("vecadd3"));
    d.write("dee/matmul.cu", "// dee's matmul, changed since it was graded\n");
    const ClassFolder c = discover_class(d.path(), catalog());
    const auto hash = [&](const std::string& s, int k) { return student(c, s)->submissions[k].content_hash; };
    const std::vector<LabResult> results = {
        result("ada", "vecadd3", hash("ada", 0), {{"add", Verdict::pass}}),
        result("ada", "matmul", hash("ada", 1), {{"naive", Verdict::pass}, {"tiled", Verdict::too_slow}}),
        result("ben", "vecadd3", hash("ben", 0), {{"add", Verdict::tampering}}),
        result("dee", "matmul", 12345, {{"naive", Verdict::pass}, {"tiled", Verdict::pass}}),
    };
    GradingConfig config;
    config.points["matmul.tiled"] = 2;
    config.credit[Verdict::too_slow] = 0.5;
    const Gradebook book = make_gradebook(c, results, catalog(), config);
    REQUIRE(book.columns.size() == 3);  // vecadd3.add, matmul.naive, matmul.tiled: only the labs handed in
    CHECK(book.columns[0].name() == "vecadd3.add");
    CHECK(book.columns[2].points == 2);
    REQUIRE(book.rows.size() == 4);
    CHECK(book.rows[0].total == 1 + 1 + 1);  // pass, pass, too_slow at half of 2
    CHECK(book.rows[0].max == 4);
    CHECK(book.rows[0].held.empty());
    CHECK(book.rows[1].total == 0);
    CHECK(book.rows[1].held == std::vector<std::string> {"vecadd3.add: tampering"});
    CHECK(cell_verdict(book.rows[1].cells[1]) == "not_submitted");
    CHECK(cell_verdict(book.rows[2].cells[0]) == "skeleton_unchanged");
    CHECK(cell_verdict(book.rows[3].cells[1]) == "not_graded");  // its result is of another version of the file
    CHECK(book.rows[3].held.size() == 2);

    const std::string csv = gradebook_csv(book, nullptr, nullptr);
    const auto rows = parse_csv(csv);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0] == CsvRow {"student", "vecadd3.add (1)", "matmul.naive (1)", "matmul.tiled (2)", "total", "max", "held"});
    CHECK(rows[1] == CsvRow {"ada", "1", "1", "1", "3", "4", ""});
    CHECK(rows[4][2].empty());  // not graded: no mark, not a zero
    CHECK(has(verdicts_csv(book), "ada,matmul,tiled,too_slow,1,2"));

    const std::string feedback = feedback_markdown(book, book.rows[1]);
    CHECK(has(feedback, "# ben: 0 of 4 points"));
    CHECK(has(feedback, "Your instructor looks at this one"));
    const auto gs = gradescope_results(book, book.rows[0]);
    CHECK(gs["score"] == 3);
    CHECK(gs["tests"].size() == 3);
    CHECK(gs["tests"][2]["max_score"] == 2);
    CHECK(gs["tests"][2]["status"] == "failed");
}

TEST_CASE("grade: with a roster the gradebook keeps its rows, its order and its columns")
{
    const TempDir d;
    d.write("ada/vecadd3.cu", "// ada\n");
    d.write("zed/vecadd3.cu", "// zed\n");
    const ClassFolder c = discover_class(d.path(), catalog());
    const Gradebook book = make_gradebook(
        c, {result("ada", "vecadd3", c.students[0].submissions[0].content_hash, {{"add", Verdict::pass}})}, catalog(), {});
    const Roster roster = read_roster(d.write("r.csv", "Name,Login\nBabbage,cb\nLovelace,ada\n"), {"Login"});
    const RosterMatch m = match_roster(roster, {"ada", "zed"});
    const auto rows = parse_csv(gradebook_csv(book, &roster, &m));
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == CsvRow {"Name", "Login", "hpclab student", "vecadd3.add (1)", "total", "max", "held"});
    CHECK(rows[1] == CsvRow {"Babbage", "cb", "", "0", "0", "1", "no submission"});
    CHECK(rows[2] == CsvRow {"Lovelace", "ada", "ada", "1", "1", "1", ""});
    CHECK(rows[3][2] == "zed");
    CHECK(has(rows[3][6], "not in the roster"));
}

// kill -9 then the same command at once: the killed grader's lock goes
// with its last thread, a moment after the kill. Here its holder has exited
// while a process it forked (no exec: it keeps the lock) lives 1.5 s more.
TEST_CASE("grade: a grader whose holder has ended waits for the lock, not for a live one")
{
    const TempDir d;
    const pid_t holder = fork();
    REQUIRE(holder >= 0);
    if (holder == 0) {
        try {
            const FolderLock lock(d.path());
            if (fork() == 0) {  // keeps the lock, as a killed grader's last thread does
                usleep(1500 * 1000);
                _exit(0);
            }
        } catch (...) {
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(holder, &status, 0) == holder);
    REQUIRE(WEXITSTATUS(status) == 0);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH_AS(FolderLock(d.path(), 0.2), doctest::Contains("which has ended"), std::runtime_error);
    CHECK_NOTHROW(FolderLock(d.path()));
    const double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(waited_s > 1.0);  // it did wait for the lock
    CHECK(waited_s < FolderLock::kEndedHolderWait_s);
}

TEST_CASE("grade: an output folder has one writer at a time, and files are written whole")
{
    const TempDir d;
    {
        const FolderLock first(d.path());
        CHECK_THROWS_WITH_AS(FolderLock(d.path()), doctest::Contains("another hpclab grade is writing this folder"),
                             std::runtime_error);
    }
    CHECK_NOTHROW(FolderLock(d.path()));  // released with its holder

    const fs::path f = d.path() / "sub" / "x.txt";
    write_file_atomically(f, "one");
    write_file_atomically(f, "two");
    CHECK(read_text_file(f) == "two");
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(f.parent_path())) ++entries;
    CHECK(entries == 1);  // no temporary left beside it

    const GradeFolder out(d.path());
    LabResult r = result("ada", "vecadd3", 42, {{"add", Verdict::wrong_answer}});
    r.tasks[0].speedup = 1.5;
    out.save(r);
    const auto back = out.load("ada", "vecadd3");
    REQUIRE(back);
    CHECK(back->content_hash == 42u);
    CHECK(back->tasks[0].verdict == Verdict::wrong_answer);
    CHECK(back->tasks[0].speedup == 1.5);
    CHECK(back->final());
    write_file_atomically(out.result_file("ben", "vecadd3"), "{ not a result");
    std::vector<std::string> unreadable;
    CHECK(out.all_results(&unreadable).size() == 1);
    CHECK(unreadable == std::vector<std::string> {"results/ben/vecadd3.json"});
    CHECK_FALSE(result("ada", "vecadd3", 1, {{"add", Verdict::grader_error}}).final());
    CHECK_FALSE(result("ada", "vecadd3", 1, {{"add", Verdict::not_run}}).final());
}

TEST_CASE("grade: a class split into chunks: each student in exactly one, and a chunk with a file unanswered is named")
{
    const TempDir d;
    for (const char* s : {"a", "b", "c", "d", "e", "f", "g"}) d.write(std::string(s) + "/vecadd3.cu", std::string("// ") + s + "\n");
    const ClassFolder c = discover_class(d.path(), catalog());
    std::vector<std::string> seen;
    for (int k = 0; k < 3; ++k)
        for (const Student* s : students_of_chunk(c, k, 3)) seen.push_back(s->id);
    CHECK(seen == std::vector<std::string> {"a", "b", "c", "d", "e", "f", "g"});
    std::vector<LabResult> results;
    for (const Student& s : c.students)
        results.push_back(result(s.id, "vecadd3", s.submissions[0].content_hash, {{"add", Verdict::not_run}}));
    CHECK(incomplete_chunks(c, results, 3).empty());  // a node without a GPU answers not_run
    results.erase(results.begin() + 3);                                   // d: chunk 1
    results[5].tasks[0].verdict = results[5].overall = Verdict::grader_error;  // g: chunk 2
    CHECK(incomplete_chunks(c, results, 3) == std::vector<int> {1, 2});
    CHECK(resubmit_command("/o", {1, 2}) == "sbatch --array=1,2 /o/slurm/grade.sbatch");
}

TEST_CASE("grade: the Slurm script runs one chunk per array task, one GPU each, with the course seed")
{
    SlurmJob j {.hpclab = "/opt/hpclab", .course_root = "/course", .submissions = "/class it's", .out = "/out",
                .seed = 99, .chunks = 5, .partition = "gpu", .grade_flags = {"--no-timing"}};
    const std::string s = slurm_script(j);
    CHECK(has(s, "#SBATCH --array=0-4\n"));
    CHECK(has(s, "#SBATCH --gres=gpu:1\n"));
    CHECK(has(s, "#SBATCH --partition=gpu\n"));
    CHECK(has(s, "export HPCLAB_ROOT='/course'"));
    CHECK(has(s, "exec '/opt/hpclab' grade '/class it'\\''s' --out '/out'/chunks/\"$SLURM_ARRAY_TASK_ID\" --chunk "
                 "\"$SLURM_ARRAY_TASK_ID/5\" --seed 99 '--no-timing'"));
}
