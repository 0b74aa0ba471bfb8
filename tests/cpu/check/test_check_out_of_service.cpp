// A GPU taken out of service by an earlier check: the next check runs
// nothing on it and says so as a grader error with the file to delete,
// never as the student's compile error (seen on the H100: a canary delayed
// by eight checks at once took the GPU out, and the checks after it printed
// an empty "Compile error").
#include "check/check.h"
#include "run/gpu_health.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <unistd.h>

using namespace hpclab;
namespace fs = std::filesystem;

TEST_CASE("check: on a GPU out of service nothing runs, every task is a grader error naming the mark to delete")
{
    const fs::path dir = fs::temp_directory_path() / ("hpclab-oos-" + std::to_string(getpid()));
    fs::remove_all(dir);
    const GpuInfo gpu {.present = true, .name = "Test GPU", .uuid = "GPU-3333"};
    take_out_of_service(dir, gpu, "the canary kernel failed twice: it hung");
    const LabInfo& lab = test::lab_of("reduction");
    CheckOptions o;
    o.source = lab.lab_dir / lab.student_file;
    o.gpu_service_dir = dir;
    const LabCheck c = check_lab(Toolchain::configured(), gpu, lab, o);
    CHECK(c.overall == Verdict::grader_error);
    CHECK_FALSE(c.build.ok);  // nothing was built
    REQUIRE(c.tasks.size() == lab.tasks.size());
    for (const TaskCheck& t : c.tasks) {
        CHECK(t.verdict.verdict == Verdict::grader_error);
        CHECK(t.verdict.reason.message.find("out of service") != std::string::npos);
        CHECK(t.verdict.reason.message.find((dir / "GPU-3333").string()) != std::string::npos);
    }
    fs::remove_all(dir);
}
