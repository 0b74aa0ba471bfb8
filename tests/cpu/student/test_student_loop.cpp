// The student's commands, run as the hpclab program on a small course in a
// temporary folder: hint, list's progress, reset, and watch driven by lines
// on its standard input. No GPU is visible; `hpclab check` (which watch runs)
// may say anything, watch only has to show it and go on.
#include "course/lab_catalog.h"
#include "process/process.h"
#include "student/committed_file.h"
#include "student/progress.h"
#include "util/git_blob.h"
#include "util/text_file.h"
#include "mini_course.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::count;
using hpclab::test::MiniCourse;
namespace fs = std::filesystem;

namespace {

std::size_t longest_line(const std::string& text)
{
    std::istringstream in(text);
    std::size_t most = 0;
    for (std::string line; std::getline(in, line);) most = std::max(most, line.size());
    return most;
}

int hints_recorded(const MiniCourse& course, const std::string& lab)
{
    const LabProgress* p = Progress::load(course.root()).find(lab);
    return p ? p->hints_shown : 0;
}

}  // namespace

TEST_CASE("student loop: hint shows the next hint each time and remembers it")
{
    MiniCourse course;
    for (int k = 1; k <= 3; ++k) {
        const ProcessResult r = course.hpclab({"hint", "alpha"});
        CAPTURE(r.out);
        CHECK(r.exit_code == 0);
        CHECK(contains(r.out, "Hint " + std::to_string(k) + " of 3 for alpha:\n"));
        CHECK(hints_recorded(course, "alpha") == k);
    }
    // Another lab keeps its own count.
    CHECK(contains(course.hpclab({"hint", "beta"}).out, "Hint 1 of 2 for beta:\n  " + MiniCourse::hint("beta", 1)));
    CHECK(hints_recorded(course, "alpha") == 3);
    CHECK(hints_recorded(course, "beta") == 1);
}

TEST_CASE("student loop: after a failing check, hint gives its evidence first, once, then the ladder")
{
    MiniCourse course;
    const CheckEvidence race {"tiled", "race", "n=33",
                              "racecheck reported an error at alpha.cu:44\n(52736 errors in all)\n\x1b[2Jcleared?",
                              "Threads of a block read shared memory that others write: a barrier between."};
    record_check(course.root(), "alpha", "race", false, race);
    ProcessResult r = course.hpclab({"hint", "alpha"});
    CAPTURE(r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "From your last check of alpha ("));
    CHECK(contains(r.out, "): task tiled, data race (racecheck) at n=33:\n  racecheck reported an error at alpha.cu:44\n"));
    CHECK(contains(r.out, "  (52736 errors in all)\n"));
    CHECK(contains(r.out, "\\x1b[2Jcleared?"));  // the program's bytes, escaped
    CHECK_FALSE(contains(r.out, "\x1b"));
    CHECK(contains(r.out, "a barrier between."));
    CHECK(contains(r.out, "'hpclab hint alpha' again gives hint 1 of 3."));
    CHECK(hints_recorded(course, "alpha") == 0);

    r = course.hpclab({"hint", "alpha"});  // the same check: the ladder
    CHECK(contains(r.out, "Hint 1 of 3 for alpha:\n"));
    CHECK_FALSE(contains(r.out, "From your last check"));

    record_check(course.root(), "alpha", "race", false, race);  // a new check, the same mistake: its evidence again
    CHECK(contains(course.hpclab({"hint", "alpha"}).out, "From your last check of alpha"));
    CHECK(contains(course.hpclab({"hint", "alpha"}).out, "Hint 2 of 3 for alpha:\n"));

    record_check(course.root(), "alpha", "pass", true);  // passed: nothing to show but the ladder
    CHECK(contains(course.hpclab({"hint", "alpha"}).out, "Hint 3 of 3 for alpha:\n"));
}

TEST_CASE("student loop: a long hint is wrapped at about 100 columns, words whole")
{
    MiniCourse course;
    const ProcessResult r = course.hpclab({"hint", "alpha"});
    REQUIRE(r.exit_code == 0);
    CHECK(longest_line(r.out) <= 100);
    CHECK(count(r.out, "\n") >= 3);  // the heading and at least two lines of text
    std::string joined = r.out.substr(r.out.find('\n') + 1);
    for (std::size_t at; (at = joined.find("\n  ")) != std::string::npos;) joined.replace(at, 3, " ");
    CHECK(contains(joined, MiniCourse::hint("alpha", 1)));
}

TEST_CASE("student loop: after the last hint, hint repeats it and says where to go next")
{
    MiniCourse course;
    for (int k = 1; k <= 2; ++k) REQUIRE(course.hpclab({"hint", "beta"}).exit_code == 0);
    const ProcessResult r = course.hpclab({"hint", "beta"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Hint 2 of 2 for beta:\n  " + MiniCourse::hint("beta", 2)));
    CHECK(contains(r.out, "no more hints"));
    CHECK(contains(r.out, "docs/beta.md"));
    CHECK_FALSE(contains(r.out, "--solution"));  // this course has no solution of beta (a student kit)
    CHECK(hints_recorded(course, "beta") == 2);
    course.write("solutions/beta/beta.cu", "// the answer\n");
    CHECK(contains(course.hpclab({"hint", "beta"}).out, "'hpclab run beta --solution' runs the reference solution"));
}

TEST_CASE("student loop: hint --all shows the hints shown so far, --reset starts over")
{
    MiniCourse course;
    ProcessResult r = course.hpclab({"hint", "alpha", "--all"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "No hints shown yet"));
    CHECK(hints_recorded(course, "alpha") == 0);

    course.hpclab({"hint", "alpha"});
    course.hpclab({"hint", "alpha"});
    r = course.hpclab({"hint", "alpha", "--all"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Hint 1 of 3 for alpha:"));
    CHECK(contains(r.out, "Hint 2 of 3 for alpha:\n  " + MiniCourse::hint("alpha", 2)));
    CHECK_FALSE(contains(r.out, "Hint 3 of 3"));
    CHECK(hints_recorded(course, "alpha") == 2);  // --all shows, it does not move on

    r = course.hpclab({"hint", "alpha", "--reset"});
    CHECK(r.exit_code == 0);
    CHECK(hints_recorded(course, "alpha") == 0);
    CHECK(contains(course.hpclab({"hint", "alpha"}).out, "Hint 1 of 3 for alpha:"));

    r = course.hpclab({"hint", "alpha", "--all", "--reset"});
    CHECK(r.exit_code == 2);
}

TEST_CASE("student loop: list shows each lab's mark, hints used and a bar, from the progress")
{
    MiniCourse course;
    ProcessResult r = course.hpclab({"list"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "[...] 0 of 3 labs solved"));
    CHECK(count(r.out, "not tried yet") == 3);

    record_check(course.root(), "alpha", "pass", true);
    record_check(course.root(), "beta", "wrong_answer", false);
    course.hpclab({"hint", "beta"});
    r = course.hpclab({"list"});
    CAPTURE(r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "[#..] 1 of 3 labs solved"));
    CHECK(contains(r.out, "[x]  1. alpha "));
    CHECK(contains(r.out, "[!]  2. beta "));
    CHECK(contains(r.out, "[ ]  3. gamma "));
    CHECK(contains(r.out, "solved; hints used: 0 of 3"));
    CHECK(contains(r.out, "last check failed: wrong answer; hints used: 1 of 2"));
    CHECK(contains(r.out, "not tried yet; hints used: 0 of 1"));

    // Solved once stays solved; the last verdict is still shown.
    record_check(course.root(), "alpha", "too_slow", false);
    r = course.hpclab({"list"});
    CHECK(contains(r.out, "[x]  1. alpha "));
    CHECK(contains(r.out, "solved once; last check: too slow"));
}

TEST_CASE("student loop: list --markdown and list <lab> do not show the progress")
{
    MiniCourse course;
    const ProcessResult before_md = course.hpclab({"list", "--markdown"});
    const ProcessResult before_lab = course.hpclab({"list", "alpha"});
    record_check(course.root(), "alpha", "pass", true);
    course.hpclab({"hint", "alpha"});
    const ProcessResult md = course.hpclab({"list", "--markdown"});
    CHECK(md.exit_code == 0);
    CHECK(md.out == before_md.out);
    CHECK(contains(md.out, "| 1 | [alpha](docs/alpha.md) |"));
    CHECK(course.hpclab({"list", "alpha"}).out == before_lab.out);
}

TEST_CASE("student loop: reset backs up the student's file and restores the committed skeleton")
{
    MiniCourse course;
    course.init_git();
    const std::string mine = "// my attempt at alpha\n";
    course.write("labs/alpha/alpha.cu", mine);

    ProcessResult r = course.hpclab({"reset", "alpha"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(course.read("labs/alpha/alpha.cu") == MiniCourse::skeleton("alpha"));
    const fs::path backups = course.file(".hpclab/backups");
    std::vector<fs::path> saved;
    for (const auto& e : fs::directory_iterator(backups)) saved.push_back(e.path());
    REQUIRE(saved.size() == 1);
    const std::string name = saved[0].filename().string();
    CHECK(name.rfind("alpha-", 0) == 0);
    CHECK(name.size() == std::string("alpha-YYYYMMDD-HHMMSS.cu").size());
    CHECK(saved[0].extension() == ".cu");
    CHECK(course.read(".hpclab/backups/" + name) == mine);
    CHECK(contains(r.out, ".hpclab/backups/" + name));  // says where the backup is

    // Already the skeleton: nothing to do, no new backup.
    r = course.hpclab({"reset", "alpha"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "already the skeleton"));
    CHECK(std::distance(fs::directory_iterator(backups), fs::directory_iterator()) == 1);

    // Another reset at once (the same second) never overwrites the first backup.
    course.write("labs/alpha/alpha.cu", "// second try\n");
    REQUIRE(course.hpclab({"reset", "alpha"}).exit_code == 0);
    course.write("labs/alpha/alpha.cu", "// third try\n");
    REQUIRE(course.hpclab({"reset", "alpha"}).exit_code == 0);
    CHECK(std::distance(fs::directory_iterator(backups), fs::directory_iterator()) == 3);
    CHECK(course.read(".hpclab/backups/" + name) == mine);

    // A deleted file comes back too.
    fs::remove(course.file("labs/beta/beta.cu"));
    r = course.hpclab({"reset", "beta"});
    CHECK(r.exit_code == 0);
    CHECK(course.read("labs/beta/beta.cu") == MiniCourse::skeleton("beta"));
}

TEST_CASE("student loop: reset restores the course's skeleton even after the student committed their own work")
{
    MiniCourse course;
    course.init_git();
    std::string blob = course.shell("git hash-object labs/alpha/alpha.cu").out;
    blob.erase(blob.find_last_not_of(" \n") + 1);
    REQUIRE(blob.size() == 40);
    std::string json = course.read("labs/alpha/lab.json");
    const std::string key = "\"student_file\": \"alpha.cu\",";
    REQUIRE(json.find(key) != std::string::npos);
    json.replace(json.find(key), key.size(), key + " \"skeleton_blob\": \"" + blob + "\",");
    course.write("labs/alpha/lab.json", json);
    course.write("labs/alpha/alpha.cu", "// my work, committed\n");
    REQUIRE(course.shell("git commit -qam mine").exit_code == 0);

    const ProcessResult r = course.hpclab({"reset", "alpha"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(course.read("labs/alpha/alpha.cu") == MiniCourse::skeleton("alpha"));
    CHECK(contains(r.out, "as the course ships it"));
}

TEST_CASE("labs: each lab.json names its skeleton's git blob, and in the course's own checkout it is the file's")
{
    // The file's own blob id, computed without git: the same in a clone and
    // in a copy without history (git archive, a release tarball). A student's
    // edits change the file: then this only says so. The course's CI
    // (HPCLAB_MAINTAINER=1) fails on a skeleton edited without its lab.json.
    const bool maintainer = std::getenv("HPCLAB_MAINTAINER") != nullptr;
    const auto root = std::filesystem::path(HPCLAB_TEST_ROOT);
    const Catalog catalog = Catalog::load(root);
    for (const auto& lab : catalog.labs()) {
        CAPTURE(lab.id);
        CHECK(lab.skeleton_blob.size() == 40);
        const std::string id = git_blob_id(read_text_file(lab.student_source()).value_or(""));
        if (id != lab.skeleton_blob && !maintainer)
            MESSAGE(lab.student_source().string() << " is not the course's skeleton (your own work?): not checked");
        else
            CHECK(id == lab.skeleton_blob);
    }
}

TEST_CASE("student loop: reset finds the course's skeleton without git, by the file's blob id")
{
    MiniCourse course;  // no git
    const std::string skeleton = MiniCourse::skeleton("alpha");
    std::string json = course.read("labs/alpha/lab.json");
    const std::string key = "\"student_file\": \"alpha.cu\",";
    REQUIRE(json.find(key) != std::string::npos);
    json.replace(json.find(key), key.size(), key + " \"skeleton_blob\": \"" + git_blob_id(skeleton) + "\",");
    course.write("labs/alpha/lab.json", json);
    const Catalog catalog = Catalog::load(course.root());
    bool from_course = false;
    CHECK(course_skeleton(course.root(), *catalog.find("alpha"), from_course) == skeleton);
    CHECK(from_course);
    course.write("labs/alpha/alpha.cu", "// mine\n");
    CHECK_FALSE(course_skeleton(course.root(), *catalog.find("alpha"), from_course).has_value());
    CHECK_FALSE(from_course);
}

TEST_CASE("student loop: reset outside a git checkout explains and changes nothing")
{
    MiniCourse course;  // no git
    course.write("labs/alpha/alpha.cu", "// mine\n");
    const ProcessResult r = course.hpclab({"reset", "alpha"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "no committed version of labs/alpha/alpha.cu"));
    CHECK(contains(r.err, "Nothing was changed"));
    CHECK(course.read("labs/alpha/alpha.cu") == "// mine\n");
    CHECK_FALSE(fs::exists(course.file(".hpclab/backups")));
}

TEST_CASE("student loop: watch driven by lines on standard input")
{
    MiniCourse course;
    const ProcessResult r = course.hpclab({"watch", "beta"}, "hint\nquit\n");
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Lab 2 of 3: beta"));
    CHECK(contains(r.out, "=== hpclab check beta: on start ==="));
    CHECK(contains(r.out, "=== hpclab check beta: exit status"));  // whatever the check said
    CHECK(contains(r.out, "Hint 1 of 2 for beta:"));
    CHECK(hints_recorded(course, "beta") == 1);
}

TEST_CASE("student loop: watch without a lab starts at the first one not solved, and takes next, prev and check")
{
    MiniCourse course;
    record_check(course.root(), "alpha", "pass", true);
    ProcessResult r = course.hpclab({"watch"}, "next\nnext\nprev\ncheck\nbogus\n");
    CAPTURE(r.out);
    CHECK(r.exit_code == 0);  // the end of the input quits
    CHECK(contains(r.out, "Lab 2 of 3: beta"));
    CHECK_FALSE(contains(r.out, "Lab 1 of 3"));
    CHECK(contains(r.out, "Lab 3 of 3: gamma"));
    CHECK(contains(r.out, "gamma is the last lab"));
    CHECK(count(r.out, "=== hpclab check beta: on start") == 2);  // at the start, and back with prev
    CHECK(contains(r.out, "=== hpclab check beta: asked ==="));
    CHECK(contains(r.out, "Unknown command 'bogus'"));
    CHECK(contains(r.out, "End of input"));

    record_check(course.root(), "beta", "pass", true);
    record_check(course.root(), "gamma", "pass", true);
    r = course.hpclab({"watch"}, "prev\nq\n");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Every lab is solved"));
    CHECK(contains(r.out, "Lab 1 of 3: alpha"));
    CHECK(contains(r.out, "alpha is the first lab"));
}

TEST_CASE("student loop: watch checks again after a save, and waits for a missing file")
{
    MiniCourse course;
    // Seconds between the steps: each must be seen on its own (300 ms looks, 200 ms settling).
    const ProcessResult r = course.shell(
        "( sleep 1.5; echo '// edited' >> labs/alpha/alpha.cu; sleep 1.5; mv labs/alpha/alpha.cu kept.cu;"
        "  sleep 1.5; mv kept.cu labs/alpha/alpha.cu; sleep 1.5; echo quit ) | \"$HPCLAB\" watch alpha");
    CAPTURE(r.out);
    CHECK(r.exit_code == 0);
    CHECK(count(r.out, "=== hpclab check alpha: on start") == 1);
    CHECK(count(r.out, "=== hpclab check alpha: labs/alpha/alpha.cu saved at") == 2);
    CHECK(contains(r.out, "labs/alpha/alpha.cu is missing: watching for it to appear"));
}

TEST_CASE("student loop: an unknown lab is refused with the list of labs")
{
    MiniCourse course;
    const std::vector<std::vector<std::string>> commands = {
        {"hint", "alpah"}, {"hint", "alpah", "--all"}, {"reset", "alpah"}, {"watch", "alpah"}, {"list", "alpah"}};
    for (const auto& args : commands) {
        const ProcessResult r = course.hpclab(args, "quit\n");
        CAPTURE(args[0]);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "unknown lab 'alpah'. The labs are: alpha, beta, gamma."));
        CHECK(contains(r.err, "Did you mean 'alpha'?"));
    }
    CHECK(course.hpclab({"hint"}).exit_code == 2);
    CHECK(course.hpclab({"reset"}).exit_code == 2);
    CHECK_FALSE(fs::exists(course.file(".hpclab")));
}

TEST_CASE("student loop: a corrupt progress file is reported, kept aside, and replaced")
{
    MiniCourse course;
    course.write(".hpclab/progress.json", "{ this is not json");
    ProcessResult r = course.hpclab({"hint", "alpha"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "is not valid progress"));
    CHECK(contains(r.err, "progress.json.corrupt"));
    CHECK(course.read(".hpclab/progress.json.corrupt") == "{ this is not json");
    CHECK(hints_recorded(course, "alpha") == 1);
    r = course.hpclab({"list"});
    CHECK(r.err.empty());
}
