// A class folder as real ones arrive (unzipped LMS downloads, students' own
// machines): every entry of every kind is graded or listed with why, names
// are escaped wherever they are written, a refused file is told as such in
// the student's feedback, and hpclab's own output folder is never a student.
#include "intake/class_folder.h"
#include "grade/class_report.h"
#include "grade/gradebook.h"
#include "grade/student_report.h"
#include "grade_helpers.h"
#include "test_support.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::contains;
using hpclab::test::why_ignored;
using hpclab::test::course_root;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

const Student& student(const ClassFolder& c, const std::string& id)
{
    for (const Student& s : c.students)
        if (s.id == id) return s;
    FAIL("no student " << id);
    throw;
}

// Whether `s` holds a byte below 0x20 other than a line break, or DEL.
bool holds_control(const std::string& s)
{
    for (const char c : s)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) return true;
    return false;
}

const std::string kEscName = "evil\x1b[2J\x1b[32mall 40 students passed\x1b[0m.cu";
const std::string kNewlineName = "x\n## ada: graded, pass\n.cu";

// One of each kind of entry a class folder brings along.
void write_every_kind(const TempDir& d)
{
    d.write("class/ada/vecadd3.cu", "// ada\n");                                  // graded
    d.write("class/ada/notes.txt", "mine\n");                                     // left alone
    d.write("class/.ada/vecadd3.cu", "// hidden student\n");                      // a dot-folder at the top
    d.write("class/.../vecadd3.cu", "// dots\n");
    d.write("class/ben/.git/HEAD", "ref\n");                                      // a hidden folder inside
    d.write("class/ben/a/b/c/d/e/vecadd3.cu", "// five folders down\n");
    d.write("class/cy/vecadd3.CU", "// upper case\n");
    d.write("class/dee/vecadd3.cu.txt", "// an LMS's .txt\n");
    d.write("class/eve/vecadd3.cu/keep.txt", "a folder named as the file\n");
    d.write("class/fox/reduction.cu", "// one\n");
    d.write("class/fox/labs/reduction/reduction.cu", "// two\n");
    d.write("class/gus/vecadd3.cu", std::string("\xFF\xFE/\0/\0", 6));              // UTF-16
    d.write("class/hal/vecadd3.cu", std::string(kMaxSubmissionBytes + 1, 'x'));  // too large
    d.write("class/ida/" + kEscName, "// a name that clears the terminal\n");
    d.write("class/ida/" + kNewlineName, "// a name that writes a heading\n");
    d.write("class/ida/hello.cu", "// ida\n");
    d.write("class/out-old/grading.json", "{}");                                  // an earlier grading's folder
    d.write("class/ben/grades/grading.json", "{}");                               // and one inside a student's
    fs::create_directories(d.path() / "class/jo");
    REQUIRE(::mkfifo((d.path() / "class/jo/vecadd3.cu").c_str(), 0644) == 0);    // would block a reader
    fs::create_directories(d.path() / "class/kim");
    fs::create_symlink("/etc/passwd", d.path() / "class/kim/vecadd3.cu");
    fs::create_directory_symlink(d.path() / "class/ada", d.path() / "class/lee");
    d.write("class/\x1b[31mred", "a top-level file with an escape\n");
}

}  // namespace

TEST_CASE("grade entries: every kind of entry is graded or listed with why, and nothing else is opened")
{
    const TempDir d;
    write_every_kind(d);
    const ClassFolder c = discover_class(d.path() / "class", catalog(), d.path() / "class" / "out");
    CHECK(student(c, "ada").submissions.size() == 1);
    CHECK(c.left_alone == std::vector<fs::path> {"ada/notes.txt", "eve/vecadd3.cu/keep.txt"});
    CHECK(contains(why_ignored(c, ".ada"), "hidden folder"));
    CHECK(contains(why_ignored(c, ".ada"), "rename it"));
    CHECK(contains(why_ignored(c, "..."), "hidden folder"));
    CHECK(contains(why_ignored(c, "ben/.git"), "hidden folder"));
    CHECK(contains(why_ignored(c, "ben/a/b/c/d/e/vecadd3.cu"), "not where vecadd3.cu goes"));
    CHECK(contains(why_ignored(c, "cy/vecadd3.CU"), "did you mean `vecadd3.cu`?"));
    CHECK(contains(why_ignored(c, "dee/vecadd3.cu.txt"), "did you mean `vecadd3.cu`?"));
    CHECK(contains(why_ignored(c, "eve/vecadd3.cu"), "a folder named like a file"));
    CHECK(contains(why_ignored(c, "fox/reduction.cu"), "2 files for reduction"));
    CHECK(contains(why_ignored(c, "gus/vecadd3.cu"), "UTF-16"));
    CHECK(contains(why_ignored(c, "hal/vecadd3.cu"), "too large"));
    CHECK(contains(why_ignored(c, "ida/" + kEscName), "not a lab's file"));
    CHECK(contains(why_ignored(c, "ida/" + kNewlineName), "not a lab's file"));
    CHECK(contains(why_ignored(c, "jo/vecadd3.cu"), "FIFO"));
    CHECK(contains(why_ignored(c, "kim/vecadd3.cu"), "symbolic link"));
    CHECK(contains(why_ignored(c, "lee"), "symbolic link"));
    CHECK(contains(why_ignored(c, "out-old"), "output folder"));
    CHECK(contains(why_ignored(c, "ben/grades"), "output folder"));
    CHECK(contains(why_ignored(c, "\x1b[31mred"), "outside any student's folder"));
    // Each entry once: the 19 above, the 2 left alone and the 2 graded (ada's vecadd3, ida's hello).
    CHECK(c.ignored.size() == 19);
    CHECK(c.submissions() == 2);
    CHECK(c.entries() == 23);

    // The students whose file was refused know it per lab; a near miss of a graded lab is no refusal.
    for (const char* id : {"ben", "cy", "dee", "fox", "gus", "hal", "jo", "kim"}) {
        CAPTURE(id);
        REQUIRE(student(c, id).refused.size() >= 1);
        CHECK(student(c, id).refused.front().lab->id == (std::string(id) == "fox" ? "reduction" : "vecadd3"));
    }
    CHECK(student(c, "ada").refused.empty());
}

TEST_CASE("grade entries: hpclab grade --list accounts for every entry, printably, and never hangs on a FIFO")
{
    const TempDir d;
    write_every_kind(d);
    const ProcessResult r = run_hpclab({"grade", (d.path() / "class").string(), "--out", (d.path() / "class/out").string(), "--list"}, true, 60);
    INFO(r.out, r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(holds_control(r.out));
    CHECK_FALSE(holds_control(r.err));
    CHECK(contains(r.out, "ida/evil\\x1b[2J\\x1b[32mall 40 students passed\\x1b[0m.cu: not a lab's file"));
    CHECK(contains(r.out, "ida/x\\n## ada: graded, pass\\n.cu: not a lab's file"));
    CHECK(contains(r.out, "jo/vecadd3.cu: a FIFO"));
    CHECK(contains(r.out, "cy/vecadd3.CU: not named as a lab's file: did you mean `vecadd3.cu`?"));
    CHECK(contains(r.out, "23 entries: 2 to grade, 21 ignored (2 of them not .cu files, left alone)."));
    CHECK(contains(r.out, "Left alone, not .cu files (2):"));

    // --out inside the submissions: never a student, before and after it exists.
    fs::create_directories(d.path() / "class/out");
    d.write("class/out/grading.json", "{}");
    const ProcessResult again = run_hpclab({"grade", (d.path() / "class").string(), "--out", (d.path() / "class/out").string(), "--list"}, true, 60);
    CHECK(contains(again.out, "out: an hpclab grade output folder"));
    CHECK(contains(again.out, "Found 11 students"));
    const ProcessResult itself = run_hpclab({"grade", (d.path() / "class").string(), "--out", (d.path() / "class").string(), "--list"}, true, 60);
    CHECK(itself.exit_code == 2);
    CHECK(contains(itself.err, "is the submissions folder itself"));
}

TEST_CASE("grade entries: a refused file is told as such in the feedback, not as nothing handed in")
{
    const TempDir d;
    write_every_kind(d);
    const ClassFolder c = discover_class(d.path() / "class", catalog());
    GradingConfig config;
    const Gradebook book = make_gradebook(c, {}, catalog(), config);
    const auto row = [&](const std::string& id) -> const BookRow& {
        for (const BookRow& r : book.rows)
            if (r.student == id) return r;
        FAIL("no row " << id);
        throw;
    };
    // The section of one lab's task in a student's feedback.
    const auto section = [&](const std::string& id, const std::string& heading) {
        const std::string md = feedback_markdown(book, row(id));
        const auto at = md.find("\n## " + heading);
        REQUIRE(at != std::string::npos);
        return md.substr(at, md.find("\n## ", at + 1) - at);
    };
    const std::string cy = section("cy", "vecadd3 / add");
    CHECK(contains(cy, "Nothing of yours was graded for this lab"));
    CHECK(contains(cy, "vecadd3.CU: not named as a lab's file"));
    CHECK(contains(cy, "did you mean \\`vecadd3.cu\\`?"));
    CHECK_FALSE(contains(cy, "No file was handed in for this lab"));
    CHECK(contains(section("gus", "vecadd3 / add"), "save it as UTF-8"));
    CHECK(contains(section("fox", "reduction / "), "keep one"));  // a lab nobody had graded still has its column
    CHECK(contains(section("ben", "vecadd3 / add"), "move it there"));
    CHECK(contains(section("ida", "vecadd3 / add"), "No file was handed in for this lab"));
    CHECK(contains(verdicts_csv(book), "cy,vecadd3,add,refused"));
    // ida handed in hello only: for vecadd3 nothing (her odd names are no lab's near miss).
    CHECK(contains(verdicts_csv(book), "ida,vecadd3,add,not_submitted"));
}

TEST_CASE("grade entries: names with escapes, line breaks, backticks, | and invalid UTF-8 are safe in every output")
{
    const TempDir d;
    d.write("class/ada/vecadd3.cu", "// ada\n");
    d.write("class/ada/" + kEscName, "x\n");
    d.write("class/ada/" + kNewlineName, "x\n");
    d.write("class/ada/a`b|c\xff.cu", "x\n");
    const ClassFolder c = discover_class(d.path() / "class", catalog());
    const std::string nasty = "bad\x1b[2J\n## fake heading\n| a | b |\n```\n`x`\xff\xc3";
    LabResult r {.student = "ada", .lab = "vecadd3", .content_hash = c.students.at(0).submissions.at(0).content_hash};
    r.tasks.push_back({.task = "add", .verdict = Verdict::tampering, .message = nasty, .where = nasty, .speedup = 2.0, .threshold = 1.0});
    r.overall = Verdict::tampering;
    const std::vector<LabResult> results {r};
    GradingConfig config;
    const Gradebook book = make_gradebook(c, results, catalog(), config);

    const std::string report = class_report_markdown(c, book, results);
    CHECK_FALSE(holds_control(report));
    CHECK(first_non_utf8(report) == std::string::npos);
    CHECK_FALSE(contains(report, "\n## ada"));  // no line a name began
    CHECK_FALSE(contains(report, "\n## fake heading"));
    CHECK(contains(report, "\\#\\# ada: graded, pass"));
    CHECK(contains(report, "a\\`b\\|c\\\\xff.cu"));

    const std::string feedback = feedback_markdown(book, book.rows.at(0));
    CHECK_FALSE(holds_control(feedback));
    CHECK(first_non_utf8(feedback) == std::string::npos);
    CHECK(contains(feedback, "\n````\nbad\\x1b[2J\n## fake heading\n"));  // inside a fence its own ``` cannot close
    const nlohmann::json gs = gradescope_results(book, book.rows.at(0));
    CHECK_NOTHROW((void)gs.dump());

    for (const std::string& csv : {verdicts_csv(book), gradebook_csv(book, nullptr, nullptr)}) {
        CHECK_FALSE(holds_control(csv));
        CHECK(first_non_utf8(csv) == std::string::npos);
    }
    CHECK(contains(verdicts_csv(book), "bad\\x1b[2J"));

    const std::string svg = speedups_svg(book);
    CHECK_FALSE(holds_control(svg));
    CHECK(first_non_utf8(svg) == std::string::npos);
}
