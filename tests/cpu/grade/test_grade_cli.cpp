// hpclab grade and merge as an instructor runs them, on this machine (no
// GPU: files compile, and the checks of those that do say not_run): the
// gradebook has every row, a second run redoes nothing final, kill -9 at
// any moment and the same command gives the book an uninterrupted run
// gives, two graders never share a folder, and Slurm's chunks merge into
// one book (the real Slurm: tests/slurm).
#include "grade/grade_folder.h"
#include "test_support.h"
#include "util/csv.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>

using namespace hpclab;
using hpclab::test::course_root;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

std::string solution(const std::string& lab)
{
    return read_text_file(course_root() / "solutions" / lab / (lab + ".cu")).value();
}

// A small class: files that compile, files that do not, a skeleton, a stray file.
void write_class(const TempDir& d)
{
    d.write("class/ada/vecadd3.cu", solution("vecadd3"));
    d.write("class/ada/hello.cu", solution("hello"));
    d.write("class/ben/labs/vecadd3/vecadd3.cu", "int x = ;\n");
    d.write("class/cy/vecadd3.cu", read_text_file(course_root() / "labs/vecadd3/vecadd3.cu").value());
    d.write("class/dee/hello.cu", "#include \"nothing.h\"\n");
    d.write("class/eve/vecadd3.cu", "__global__ void k() { undefined_name(); }\n");
    d.write("class/fox/hello.cu", "void f() { return 1; }\n");
    d.write("class/README.txt", "the class\n");
    d.write("class/fox/\x1b[2Jall passed\n# fox: pass.cu", "a name that would clear the terminal\n");
}

// Whether `s` holds a byte below 0x20 other than a line break, or DEL.
bool holds_control(const std::string& s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f; });
}

ProcessResult grade(const TempDir& d, std::vector<std::string> more = {}, const std::string& out = "out")
{
    std::vector<std::string> args = {"grade", (d.path() / "class").string(), "--out", (d.path() / out).string(),
                                     "--no-sandbox", "--seed", "1234", "--jobs", "2"};
    args.insert(args.end(), more.begin(), more.end());
    return run_hpclab(args, true, 600);
}

std::string file(const TempDir& d, const std::string& path) { return read_text_file(d.path() / path).value_or("(missing)"); }

// Without nvcc nothing builds: these tests say so and stop.
bool can_build()
{
    static const bool yes = !has(run_hpclab({"info"}).out, "nvcc: not found");
    if (!yes) MESSAGE("no CUDA compiler here: the grading tests need one to compile the class");
    return yes;
}

}  // namespace

TEST_CASE("grade cli: a class into a gradebook with every row, and the same command again redoes nothing final")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    const ProcessResult first = grade(d);
    INFO(first.out, first.err);
    REQUIRE(first.exit_code == 0);
    CHECK(has(first.out, "Found 6 students, 7 lab files"));
    CHECK(has(first.out, "1 of them the skeleton as handed out"));
    CHECK(has(first.out, "README.txt: a file outside any student's folder"));
    CHECK(has(first.out, "fox/\\x1b[2Jall passed\\n# fox: pass.cu: not a lab's file"));
    CHECK(has(first.out, "9 entries: 6 to grade, 1 the skeleton as handed out, 2 ignored."));
    CHECK(has(first.out, "6 files to grade"));
    CHECK_FALSE(holds_control(first.out));
    CHECK_FALSE(holds_control(file(d, "out/report.md")));
    CHECK(has(file(d, "out/report.md"), R"(fox/\\x1b\[2Jall passed\\n\# fox: pass.cu)"));  // shown as typed
    const auto book = parse_csv(file(d, "out/gradebook.csv"));
    REQUIRE(book.size() == 7);  // the header and six students
    CHECK(book[0] == CsvRow {"student", "hello.hello (1)", "vecadd3.add (1)", "total", "max", "held"});
    CHECK(book[1] == CsvRow {"ada", "0", "0", "0", "2", "hello.hello: not_run; vecadd3.add: not_run"});
    const std::string verdicts = file(d, "out/verdicts.csv");
    CHECK(has(verdicts, "ben,vecadd3,add,compile_error"));
    CHECK(has(verdicts, "cy,vecadd3,add,skeleton_unchanged"));
    CHECK(has(verdicts, "dee,hello,hello,compile_error"));
    CHECK(has(file(d, "out/students/eve/feedback.md"), "vecadd3.cu(1): error"));
    CHECK_FALSE(has(file(d, "out/students/eve/feedback.md"), (d.path() / "class").string()));  // as the student names it
    CHECK(has(file(d, "out/students/fox/results.json"), "\"max_score\""));
    CHECK(has(file(d, "out/report.md"), "## Held for a person"));
    CHECK(has(file(d, "out/speedups.svg"), "<svg"));

    // Compile errors stand; not_run (no GPU here) is graded again, to the same book.
    const std::string first_book = file(d, "out/gradebook.csv");
    const ProcessResult again = grade(d);
    CHECK(again.exit_code == 0);
    CHECK(has(again.out, "2 files to grade"));
    CHECK(file(d, "out/gradebook.csv") == first_book);
    const ProcessResult one = grade(d, {"--student", "ben"});
    CHECK(has(one.out, "1 files to grade"));
    CHECK(grade(d, {"--student", "nobody"}).exit_code == 2);
}

TEST_CASE("grade cli: killed with SIGKILL at any moment, the same command gives the book an uninterrupted run gives")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    REQUIRE(grade(d, {}, "whole").exit_code == 0);
    for (const double after_s : {0.3, 1.5, 3.0}) {
        CAPTURE(after_s);
        std::atomic<bool> kill {false};
        ProcessSpec spec;
        spec.argv = {HPCLAB_EXE, "grade", (d.path() / "class").string(), "--out", (d.path() / "killed").string(),
                     "--no-sandbox", "--seed", "1234", "--jobs", "1", "--again"};
        spec.set_env = {{"HPCLAB_ROOT", course_root().string()}, {"CUDA_VISIBLE_DEVICES", ""}};
        spec.wall_limit_s = 600;
        spec.cancel = &kill;
        std::thread killer([&] {
            std::this_thread::sleep_for(std::chrono::duration<double>(after_s));
            kill = true;
        });
        const ProcessResult killed = run_process(spec);
        killer.join();
        if (after_s < 1) CHECK(killed.cancelled);  // killed before it could end (compiling alone takes longer)
        const ProcessResult resumed = grade(d, {}, "killed");
        INFO(resumed.out, resumed.err);
        CHECK(resumed.exit_code == 0);
        CHECK(file(d, "killed/gradebook.csv") == file(d, "whole/gradebook.csv"));
        CHECK(file(d, "killed/verdicts.csv") == file(d, "whole/verdicts.csv"));
    }
}

TEST_CASE("grade cli: two graders never write one folder, and bad inputs are refused before anything runs")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    {
        const FolderLock held(d.path() / "out");
        const ProcessResult r = grade(d);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "another hpclab grade is writing this folder (pid"));
    }
    REQUIRE(grade(d).exit_code == 0);
    ProcessResult r = run_hpclab({"grade", (d.path() / "class").string(), "--out", (d.path() / "out").string(),
                                  "--no-sandbox", "--seed", "99"});  // the folder's seed is 1234
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "graded with the course seed 1234, not 99"));
    r = run_hpclab({"grade", (d.path() / "nowhere").string(), "--out", (d.path() / "o2").string()});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "not a folder of submissions"));
    r = grade(d, {"--chunk", "3/3"}, "o3");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "must be k/K with 0 <= k < K"));
    r = grade(d, {"--config", d.write("c.json", R"({"points": {"vecadd9": 1}})").string()}, "o4");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "no lab vecadd9"));
    r = grade(d, {"--roster", d.write("r.csv", "Name\nAda\n").string()}, "o5");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--roster-key"));
    CHECK_FALSE(fs::exists(d.path() / "o5" / "results"));  // refused before anything ran
}

TEST_CASE("grade cli: without a sandbox grading refuses, unless told --no-sandbox")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE, "grade", (d.path() / "class").string(), "--out", (d.path() / "out").string()};
    spec.set_env = {{"HPCLAB_ROOT", course_root().string()}, {"CUDA_VISIBLE_DEVICES", ""},
                    {"HPCLAB_BWRAP", "/nonexistent/bwrap"}};
    spec.wall_limit_s = 120;
    const ProcessResult r = run_process(spec);
    CHECK(r.exit_code == 4);
    CHECK(has(r.err, "install bubblewrap"));
    CHECK(has(r.err, "--no-sandbox"));
    CHECK_FALSE(fs::exists(d.path() / "out" / "results"));
}

TEST_CASE("grade cli: Slurm chunks, each graded on its own, merge into the book one run gives, and a missing chunk is named")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    REQUIRE(grade(d, {}, "whole").exit_code == 0);
    const ProcessResult slurm = grade(d, {"--slurm", "--chunks", "3"}, "cluster");
    INFO(slurm.out, slurm.err);
    REQUIRE(slurm.exit_code == 0);
    const std::string script = file(d, "cluster/slurm/grade.sbatch");
    CHECK(has(script, "#SBATCH --array=0-2"));
    CHECK(has(script, "--seed 1234"));
    // What each array task runs, here in turn.
    const auto chunk = [&](int k) {
        return grade(d, {"--chunk", std::to_string(k) + "/3"}, "cluster/chunks/" + std::to_string(k)).exit_code;
    };
    for (int k = 0; k < 3; ++k) REQUIRE(chunk(k) == 0);
    ProcessResult merged = run_hpclab({"merge", (d.path() / "cluster").string()});
    INFO(merged.out);
    CHECK(merged.exit_code == 0);
    CHECK(has(merged.out, "Every chunk is complete."));
    CHECK(file(d, "cluster/gradebook.csv") == file(d, "whole/gradebook.csv"));

    fs::remove_all(d.path() / "cluster" / "chunks" / "1");
    merged = run_hpclab({"merge", (d.path() / "cluster").string()});
    CHECK(merged.exit_code == 1);
    CHECK(has(merged.out, "sbatch --array=1 " + (d.path() / "cluster/slurm/grade.sbatch").string()));
    CHECK(has(file(d, "cluster/gradebook.csv"), "not graded yet"));
    REQUIRE(chunk(1) == 0);
    CHECK(run_hpclab({"merge", (d.path() / "cluster").string()}).exit_code == 0);
    CHECK(file(d, "cluster/gradebook.csv") == file(d, "whole/gradebook.csv"));
    CHECK(run_hpclab({"merge", (d.path() / "class").string()}).exit_code == 2);  // not a Slurm grading
}

TEST_CASE("grade cli: the sample class compiles as expected here, and the rest waits for a GPU")
{
    if (!can_build()) return;
    const TempDir d;
    const ProcessResult r = run_hpclab({"grade", (course_root() / "examples/class/submissions").string(), "--out",
                                        (d.path() / "out").string(), "--no-sandbox", "--expect",
                                        (course_root() / "examples/class/expected.csv").string()},
                                       true, 600);
    INFO(r.out, r.err);
    CHECK(r.exit_code == 77);  // skipped: the verdicts that need a GPU could not be judged
    CHECK(has(r.out, "Found 6 students, 11 lab files"));
    CHECK_FALSE(has(r.out, "Ignored"));
    CHECK(has(r.out, "expected verdicts: 2 of 12 as expected, 10 not run (no GPU)"));  // dee's compile error, dee's missing hello
    CHECK(has(file(d, "out/verdicts.csv"), "dee,vecadd3,add,compile_error"));

    // An expectation the book does not meet fails, whatever could not run.
    const fs::path wrong = d.write("wrong.csv", "student,lab,task,verdict\ndee,vecadd3,add,pass\n");
    const ProcessResult w = run_hpclab({"grade", (course_root() / "examples/class/submissions").string(), "--out",
                                        (d.path() / "out").string(), "--no-sandbox", "--expect", wrong.string()},
                                       true, 600);
    CHECK(w.exit_code == 1);
    CHECK(has(w.out, "expected dee vecadd3.add: pass, got compile_error"));
}

TEST_CASE("grade cli: --checks-at-once is the checks sharing a GPU, and --per-gpu, its old name, is still taken with a note")
{
    TempDir d;
    write_class(d);
    const auto listed = [&](const std::vector<std::string>& option) {
        std::vector<std::string> args = {"grade", (d.path() / "class").string(), "--out", (d.path() / "out").string(), "--list"};
        args.insert(args.end(), option.begin(), option.end());
        return run_hpclab(args);
    };
    const ProcessResult now = listed({"--checks-at-once", "2"});
    CHECK(now.exit_code == 0);
    CHECK_FALSE(has(now.err, "--per-gpu"));
    const ProcessResult old = listed({"--per-gpu", "2"});
    CHECK(old.exit_code == 0);
    CHECK(has(old.err, "--per-gpu is now called --checks-at-once"));
    CHECK(listed({"--checks-at-once", "17"}).exit_code == 2);  // one range for both names
    CHECK(listed({"--per-gpu", "0"}).exit_code == 2);
    CHECK_FALSE(has(run_hpclab({"grade", "--help"}).out, "--per-gpu"));  // the help names the setting once
}

TEST_CASE("grade cli: the big sizes are graded by default, and --no-big reaches every chunk of a Slurm grading")
{
    if (!can_build()) return;
    const TempDir d;
    write_class(d);
    const ProcessResult big = grade(d, {"--slurm", "--chunks", "2"}, "big");
    INFO(big.out, big.err);
    REQUIRE(big.exit_code == 0);
    CHECK_FALSE(has(file(d, "big/slurm/grade.sbatch"), "-big"));  // the chunks' own default: the big sizes
    const ProcessResult no_big = grade(d, {"--slurm", "--chunks", "2", "--no-big"}, "small");
    INFO(no_big.out, no_big.err);
    REQUIRE(no_big.exit_code == 0);
    CHECK(has(file(d, "small/slurm/grade.sbatch"), "--no-big"));
    // --big, the default now, is still taken.
    CHECK(grade(d, {"--slurm", "--chunks", "2", "--big"}, "old").exit_code == 0);
}
