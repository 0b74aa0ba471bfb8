// The bulk downloads of Canvas, Moodle and Gradescope, made here as each LMS
// names its files (docs/instructors.md says where each rule comes from),
// graded as they come: zipped or unzipped, each student's id taken from the
// names, the newest upload kept and the older ones listed, the late mark
// kept, and every entry placed in a student's folder or listed with why.
#include "intake/class_folder.h"
#include "intake/class_source.h"
#include "intake/gradescope_metadata.h"
#include "intake/lms_names.h"
#include "intake/roster.h"
#include "test_support.h"
#include "zip_maker.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::contains;
using hpclab::test::make_zip;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kCode = "__global__ void add() {}\n";

const Student* student(const ClassFolder& c, const std::string& id)
{
    for (const Student& s : c.students)
        if (s.id == id) return &s;
    return nullptr;
}

std::string graded_text(const ClassFolder& c, const std::string& id)
{
    const Student* s = student(c, id);
    REQUIRE(s);
    REQUIRE(s->submissions.size() == 1);
    return test::file_bytes(s->submissions.front().file);
}

std::string why_left_out(const LmsDownload& d, const std::string& path)
{
    for (const Ignored& g : d.left_out)
        if (g.path == path) return g.why;
    return "(not left out)";
}

const test::ZipFiles kCanvas = {
    {"lovelaceada_101_9001_vecadd3.cu", "first " + kCode},
    {"lovelaceada_101_9050_vecadd3-1.cu", "second " + kCode},
    {"lovelaceada_101_9002_notes.txt", "my notes"},
    {"hoppergrace_LATE_102_9003_vecadd3.cu", "late " + kCode},
    {"turingalan_103_text.html", "<p>see attached</p>"},
    {"anon_x7Yq_9004_vecadd3.cu", "anonymous " + kCode},
    {"random.txt", "not Canvas's"},
};

// Every file of the download is placed or left out, and nothing twice.
void check_accounted(const LmsDownload& d, std::size_t files)
{
    CHECK(d.placed + d.left_out.size() + d.read == files);
}

}  // namespace

TEST_CASE("grade lms: Canvas's names give the user id, the LATE mark and the upload, and the rest is not taken for one")
{
    const auto c = parse_canvas_name("lovelaceada_LATE_101_9001_vecadd3_final.cu");
    REQUIRE(c);
    CHECK(c->student == "101");
    CHECK(c->late);
    CHECK(c->attachment_id == "9001");
    CHECK(c->file == "vecadd3_final.cu");
    const auto anon = parse_canvas_name("anon_x7Yq_9004_vecadd3.cu");
    REQUIRE(anon);
    CHECK(anon->student == "anon_x7Yq");
    CHECK_FALSE(parse_canvas_name("vecadd3.cu"));
    CHECK_FALSE(parse_canvas_name("101_9001_vecadd3.cu"));  // Canvas writes a name first
    CHECK(upload_of("vecadd3-2.cu").file == "vecadd3.cu");
    CHECK(upload_of("vecadd3-2.cu").number == 2);
    CHECK(upload_of("vecadd3.cu").number == 0);
    CHECK(upload_of("my-notes.txt").file == "my-notes.txt");
}

TEST_CASE("grade lms: a Canvas ZIP is graded as it comes: the newest upload, the late mark, every entry accounted for")
{
    const TempDir d;
    const fs::path zip = d.path() / "submissions.zip";
    make_zip(zip, kCanvas);
    const fs::path out = d.path() / "grades";
    const ClassSource source = prepare_class_source(zip, out, catalog());
    REQUIRE(source.download);
    const LmsDownload& dl = *source.download;
    CHECK(dl.layout == LmsLayout::canvas);
    CHECK(source.class_root == out / "submissions");
    check_accounted(dl, kCanvas.size());
    CHECK(dl.placed == 4);
    CHECK(contains(why_left_out(dl, "lovelaceada_101_9001_vecadd3.cu"), "earlier upload"));
    CHECK(contains(why_left_out(dl, "turingalan_103_text.html"), "text entry"));
    CHECK(contains(why_left_out(dl, "random.txt"), "not named as Canvas names"));

    const ClassFolder cls = discover_class(source.class_root, catalog(), out);
    CHECK(graded_text(cls, "101") == "second " + kCode);
    CHECK(graded_text(cls, "102") == "late " + kCode);
    CHECK(graded_text(cls, "anon_x7Yq") == "anonymous " + kCode);
    CHECK(cls.left_alone == std::vector<fs::path> {"101/notes.txt"});

    const auto kept = kept_lms_students(out);
    CHECK(kept.at("102").late_mark);
    CHECK_FALSE(kept.at("101").late_mark);
    CHECK(contains(class_source_summary(source), "Canvas download: 4 files placed"));

    // hpclab's own unzipped copy is not a download to grade: it is remade from the ZIP.
    CHECK_THROWS_WITH_AS(prepare_class_source(out / "download", out, catalog()), doctest::Contains("hpclab's own copy"),
                         std::runtime_error);

    // Graded again from the same ZIP: the same class, nothing stale left.
    const ClassSource again = prepare_class_source(zip, out, catalog());
    CHECK(again.download->placed == 4);
    CHECK(discover_class(again.class_root, catalog(), out).students.size() == cls.students.size());
}

TEST_CASE("grade lms: the unzipped Canvas folder is graded the same, and its folder is left as it was")
{
    const TempDir d;
    for (const auto& [name, bytes] : kCanvas) d.write("download/" + name, bytes);
    const fs::path out = d.path() / "grades";
    const ClassSource source = prepare_class_source(d.path() / "download", out, catalog());
    REQUIRE(source.download);
    CHECK_FALSE(source.unpacked);
    CHECK(source.download->placed == 4);
    CHECK(graded_text(discover_class(source.class_root, catalog(), out), "101") == "second " + kCode);
    CHECK(fs::exists(d.path() / "download" / "lovelaceada_101_9001_vecadd3.cu"));
}

TEST_CASE("grade lms: Moodle's folders (and its flat names) give the participant id, which its grading worksheet maps")
{
    const TempDir d;
    const test::ZipFiles files = {
        {"Ada Lovelace_555_assignsubmission_file/vecadd3.cu", "ada " + kCode},
        {"Ada Lovelace_555_assignsubmission_onlinetext/onlinetext.html", "<p>hi</p>"},
        {"Grace Hopper_556_assignsubmission_file_/labs/vecadd3/vecadd3.cu", "grace " + kCode},
        {"Alan Turing_557_assignsubmission_file_vecadd3.cu", "alan " + kCode},
        {"readme.txt", "not Moodle's"},
    };
    make_zip(d.path() / "moodle.zip", files);
    const fs::path out = d.path() / "grades";
    const ClassSource source = prepare_class_source(d.path() / "moodle.zip", out, catalog());
    REQUIRE(source.download);
    CHECK(source.download->layout == LmsLayout::moodle);
    check_accounted(*source.download, files.size());
    CHECK(contains(why_left_out(*source.download, "Ada Lovelace_555_assignsubmission_onlinetext"), "onlinetext"));
    CHECK(contains(why_left_out(*source.download, "readme.txt"), "not named as Moodle names"));
    // A flat name whose file part is ".." lands nowhere outside the student's folder.
    const TempDir flat;
    flat.write("download/Eve Evil_558_assignsubmission_file_..", "x");
    flat.write("download/Ada Lovelace_555_assignsubmission_file_vecadd3.cu", kCode);
    const ClassSource evil = prepare_class_source(flat.path() / "download", flat.path() / "grades", catalog());
    REQUIRE(evil.download);
    CHECK(contains(why_left_out(*evil.download, "Eve Evil_558_assignsubmission_file_.."), "not one hpclab can place"));
    CHECK_FALSE(fs::exists(flat.path() / "grades" / "submissions" / "558"));
    const ClassFolder cls = discover_class(source.class_root, catalog(), out);
    CHECK(graded_text(cls, "555") == "ada " + kCode);
    CHECK(graded_text(cls, "556") == "grace " + kCode);
    CHECK(graded_text(cls, "557") == "alan " + kCode);

    const fs::path worksheet = d.write("worksheet.csv", "Identifier,Full name,Email address\n"
                                                       "Participant 555,Ada Lovelace,ada@uni.edu\n"
                                                       "Participant 556,Grace Hopper,grace@uni.edu\n");
    const RosterMatch m = match_roster(read_roster(worksheet, {}), {"555", "556", "557"});
    CHECK(m.row_of.at("555") == 0);
    CHECK(m.row_of.at("556") == 1);
    CHECK(m.unmatched == std::vector<std::string> {"557"});
}

TEST_CASE("grade lms: Gradescope's export: its metadata names each submission's submitters and time, and a group's file goes to each")
{
    const std::string meta = "submission_1001:\n"
                             "  :submitters:\n"
                             "  - :name: Ada Lovelace\n"
                             "    :sid: 's1'\n"
                             "    :email: ada@uni.edu\n"
                             "  :created_at: 2026-11-20 14:59:00.123456000 -0800\n"
                             "  :score: 10.0\n"
                             "submission_1002:\n"
                             "  :submitters:\n"
                             "  - :name: Grace Hopper\n"
                             "    :sid: ''\n"
                             "    :email: grace@uni.edu\n"
                             "  - :name: Alan Turing\n"
                             "    :sid: s3\n"
                             "  :created_at: 2026-11-22 01:00:00 +0000\n";
    const auto parsed = parse_gradescope_metadata(meta);
    REQUIRE(parsed.size() == 2);
    CHECK(parsed.at("submission_1002").submitters.size() == 2);
    // 14:59 at -08:00 is 22:59 UTC: 26 hours and a minute before the second.
    CHECK(*parsed.at("submission_1002").created_at - *parsed.at("submission_1001").created_at == 26 * 3600 + 60);

    const TempDir d;
    const test::ZipFiles files = {
        {"assignment_42_export/submission_metadata.yml", meta},
        {"assignment_42_export/submission_1001/vecadd3.cu", "ada " + kCode},
        {"assignment_42_export/submission_1002/vecadd3.cu", "pair " + kCode},
        {"assignment_42_export/submission_9999/vecadd3.cu", "nobody's"},
    };
    make_zip(d.path() / "export.zip", files);
    const fs::path out = d.path() / "grades";
    const ClassSource source = prepare_class_source(d.path() / "export.zip", out, catalog());
    REQUIRE(source.download);
    const LmsDownload& dl = *source.download;
    CHECK(dl.layout == LmsLayout::gradescope);
    CHECK(dl.read == 1);
    CHECK(dl.placed == 3);  // one file, and the pair's to each of them
    CHECK(contains(why_left_out(dl, "submission_9999"), "not a submission's folder"));
    const ClassFolder cls = discover_class(source.class_root, catalog(), out);
    CHECK(graded_text(cls, "s1") == "ada " + kCode);
    CHECK(graded_text(cls, "grace@uni.edu") == "pair " + kCode);
    CHECK(graded_text(cls, "s3") == "pair " + kCode);
    CHECK(kept_lms_students(out).at("s1").submitted_at == parsed.at("submission_1001").created_at);
}

TEST_CASE("grade lms: a class folder as before is graded where it is, and a ZIP of one is unpacked and graded")
{
    const TempDir d;
    d.write("class/ada/vecadd3.cu", kCode);
    const ClassSource plain = prepare_class_source(d.path() / "class", d.path() / "grades", catalog());
    CHECK_FALSE(plain.download);
    CHECK(plain.class_root == d.path() / "class");
    CHECK_FALSE(fs::exists(d.path() / "grades"));

    // A stray file named as Canvas names one does not make the class a Canvas download.
    d.write("class/notes_1_2_todo.txt", "grade by Friday");
    CHECK_FALSE(prepare_class_source(d.path() / "class", d.path() / "grades", catalog()).download);

    make_zip(d.path() / "class.zip", {{"ada/vecadd3.cu", kCode}});
    const ClassSource zipped = prepare_class_source(d.path() / "class.zip", d.path() / "grades", catalog());
    CHECK_FALSE(zipped.download);
    CHECK(graded_text(discover_class(zipped.class_root, catalog(), d.path() / "grades"), "ada") == kCode);
}

TEST_CASE("grade lms: hpclab grade <download>.zip --list says what became of every entry")
{
    const TempDir d;
    make_zip(d.path() / "submissions.zip", kCanvas);
    const ProcessResult r = test::run_hpclab(
        {"grade", (d.path() / "submissions.zip").string(), "--out", (d.path() / "grades").string(), "--list"}, true, 60);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Unpacked 7 files of 7 entries."));
    CHECK(contains(r.out, "Canvas download: 4 files placed in 3 students' folders, 1 marked late; 3 left out:"));
    CHECK(contains(r.out, "lovelaceada_101_9001_vecadd3.cu: an earlier upload of vecadd3.cu"));
    CHECK(contains(r.out, "Found 3 students"));
}

TEST_CASE("grade lms: the sample class as Canvas hands it out grades the same files, the late student marked")
{
    // examples/class as Canvas's download names it: student k gets user id 100+k, cy is late.
    const fs::path sample = test::course_root() / "examples/class/submissions";
    const TempDir d;
    test::ZipFiles files;
    std::map<std::string, std::string> id_of;
    long long file_id = 9000;
    for (const auto& e : fs::recursive_directory_iterator(sample)) {
        if (!e.is_regular_file()) continue;
        const std::string who = e.path().lexically_relative(sample).begin()->string();
        if (!id_of.count(who)) id_of[who] = std::to_string(101 + id_of.size());
        files.push_back({fmt::format("{}{}_{}_{}_{}", who, who == "cy" ? "_LATE" : "", id_of[who], ++file_id,
                                     e.path().filename().string()),
                         test::file_bytes(e.path())});
    }
    make_zip(d.path() / "canvas.zip", files);
    const fs::path out = d.path() / "grades";
    const ClassSource source = prepare_class_source(d.path() / "canvas.zip", out, catalog());
    REQUIRE(source.download);
    CHECK(source.download->left_out.empty());
    const ClassFolder from_canvas = discover_class(source.class_root, catalog(), out);
    const ClassFolder as_folders = discover_class(sample, catalog());
    REQUIRE(from_canvas.students.size() == as_folders.students.size());
    for (const Student& s : as_folders.students) {
        const Student* c = student(from_canvas, id_of.at(s.id));
        REQUIRE(c);
        REQUIRE(c->submissions.size() == s.submissions.size());
        for (std::size_t i = 0; i < s.submissions.size(); ++i)
            CHECK(c->submissions[i].content_hash == s.submissions[i].content_hash);
    }
    const auto kept = kept_lms_students(out);
    for (const auto& [who, id] : id_of) CHECK(kept.at(id).late_mark == (who == "cy"));
}
