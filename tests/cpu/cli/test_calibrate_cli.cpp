// hpclab calibrate and the course config on the command line, with no GPU
// visible: nothing is measured (77, and why), bad arguments are refused (2)
// before anything runs, and every command reads the course's
// course-config.json: `list` says where a threshold comes from, and a
// config that cannot be trusted stops hpclab with one clear message.
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

// The course's labs (their lab.json alone) in a folder of the test's, so
// that a course-config.json there never touches the checkout.
class CourseCopy {
public:
    CourseCopy()
    {
        for (const auto& lab : test::catalog().labs())
            dir_.write("labs/" + lab.id + "/lab.json", read_text_file(lab.lab_dir / "lab.json").value());
    }
    void config(const std::string& text) const { dir_.write("course-config.json", text); }
    ProcessResult hpclab(std::vector<std::string> args) const
    {
        ProcessSpec spec;
        spec.argv = {HPCLAB_EXE};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.set_env = {{"HPCLAB_ROOT", dir_.path().string()},
                        {"HPCLAB_STATE", (dir_.path() / "state").string()},
                        {"CUDA_VISIBLE_DEVICES", ""}};
        spec.wall_limit_s = 120;
        return run_process(spec);
    }

private:
    TempDir dir_;
};

}  // namespace

TEST_CASE("calibrate cli: without a GPU nothing is measured, and it says why (77)")
{
    for (const std::vector<std::string>& args :
         {std::vector<std::string> {"calibrate"}, std::vector<std::string> {"calibrate", "vecadd3", "--reps", "2"}}) {
        const ProcessResult r = run_hpclab(args);
        CAPTURE(r.err);
        CHECK(r.exit_code == 77);
        CHECK(contains(r.err, "hpclab calibrate: nothing measured: "));
    }
}

TEST_CASE("calibrate cli: an unknown lab, a lab without a threshold, bad reps or a bad config: exit 2")
{
    ProcessResult r = run_hpclab({"calibrate", "vecad3"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "unknown lab 'vecad3'"));
    CHECK(contains(r.err, "Did you mean 'vecadd3'?"));
    r = run_hpclab({"calibrate", "hello"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "lab hello has no speed threshold: nothing to calibrate"));
    CHECK(run_hpclab({"calibrate", "--reps", "0"}).exit_code == 2);
    CHECK(run_hpclab({"calibrate", "--reps", "many"}).exit_code == 2);
    const TempDir d;
    const fs::path bad = d.write("bad.json", R"({"thresholds": {"vecadd3": {"add": -1}}})");
    r = run_hpclab({"calibrate", "--config", bad.string()});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "vecadd3.add: must be a positive number"));
}

TEST_CASE("calibrate cli: hpclab --help lists it")
{
    const ProcessResult r = run_hpclab({"--help"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "calibrate"));
    CHECK(contains(run_hpclab({"calibrate", "--help"}).out, "tests/broken/<lab>/"));
}

TEST_CASE("course config cli: list shows where each threshold comes from, and a bad config stops hpclab (2)")
{
    const CourseCopy course;
    ProcessResult r = course.hpclab({"list", "vecadd3"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "(from lab.json, calibrated)"));

    course.config(R"({"thresholds": {"vecadd3": {"add": 0.45}}})");
    r = course.hpclab({"list", "vecadd3"});
    CAPTURE(r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "speed: at least 0.45x"));
    const double shipped = test::task_of("vecadd3", "add").threshold->shipped;
    CHECK(contains(r.out, fmt::format("(from course-config.json, in place of lab.json's {:g})", shipped)));
    CHECK(contains(course.hpclab({"list", "reduction"}).out, "(from lab.json, calibrated)"));

    course.config(R"({"thresholds": {"vecadd3": {"add": 0}}})");
    r = course.hpclab({"list"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "hpclab: the course config: "));
    CHECK(contains(r.err, "course-config.json: thresholds: vecadd3.add: must be a positive number"));
}
