// --needs: a test's check or grade whose verdict only the sandbox (or the
// run's cgroup, or Nsight Compute's sentence) gives skips (77) where it cannot be had, and says why in
// the line ctest's summary sums up; an unknown need is a usage error.
#include "process/process.h"
#include "run/profiler.h"
#include "run/toolchain.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {

ProcessResult hpclab_without_sandbox(std::vector<std::string> args, const std::filesystem::path& skip_log)
{
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.wall_limit_s = 120;
    spec.set_env = {{"HPCLAB_ROOT", test::course_root().string()},
                    {"HPCLAB_STATE", (skip_log.parent_path() / "state").string()},
                    {"HPCLAB_NO_SANDBOX", "1"},
                    {"HPCLAB_SKIP_LOG", skip_log.string()}};
    return run_process(spec);
}

}  // namespace

TEST_CASE("needs: check and grade skip without the sandbox they need, and the skip log says why")
{
    const test::TempDir d;
    const auto log = d.path() / "skipped-why.txt";
    const ProcessResult check = hpclab_without_sandbox(
        {"check", "vecadd3", "--solution", "--no-timing", "--expect", "pass", "--needs", "sandbox"}, log);
    INFO(check.out, check.err);
    CHECK(check.exit_code == 77);
    const ProcessResult grade = hpclab_without_sandbox(
        {"grade", (test::course_root() / "examples/class/submissions").string(), "--out", (d.path() / "grades").string(),
         "--expect", (test::course_root() / "examples/class/expected.csv").string(), "--needs", "sandbox"},
        log);
    INFO(grade.out, grade.err);
    CHECK(grade.exit_code == 77);
    CHECK(test::contains(grade.out, "needs the sandbox, and none can be made here: HPCLAB_NO_SANDBOX=1"));
    CHECK_FALSE(std::filesystem::exists(d.path() / "grades" / "gradebook.csv"));
    // A line each; the sandbox's reason where the compiler and a GPU are there
    // (else theirs, which come first: tests/ctest_summary.cmake sums them up).
    const std::string why = read_text_file(log).value_or("");
    CHECK(std::count(why.begin(), why.end(), '\n') == 2);
}

TEST_CASE("needs: a check that needs the profiler skips where Nsight Compute is not installed, and says so")
{
    if (find_ncu(Toolchain::configured().nvcc)) {
        MESSAGE("Nsight Compute is installed here: the skip is for machines without it");
        return;
    }
    const test::TempDir d;
    const auto log = d.path() / "skipped-why.txt";
    const ProcessResult check = hpclab_without_sandbox(
        {"check", "vecadd3", "--solution", "--profile", "--needs", "ncu"}, log);
    INFO(check.out, check.err);
    CHECK(check.exit_code == 77);
    CHECK(test::contains(check.out, "needs the profiler for its sentence, and Nsight Compute (ncu) is not installed"));
    // One line in the skip log: this reason where a GPU is there, else "no GPU here", which comes first.
    const std::string why = read_text_file(log).value_or("");
    CHECK(std::count(why.begin(), why.end(), '\n') == 1);
}

TEST_CASE("needs: only sandbox, cgroup and ncu, else a usage error before anything runs")
{
    const ProcessResult r = test::run_hpclab({"check", "vecadd3", "--needs", "network"});
    CHECK(r.exit_code == 2);
    CHECK(test::contains(r.err, "--needs"));
}
