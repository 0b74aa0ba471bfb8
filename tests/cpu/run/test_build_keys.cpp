// Builds are keyed by content: two versions of one file are two programs,
// and a check still running the first never finds the second in its place.
#include "run/toolchain.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::lab_of;
using hpclab::test::TempDir;

// Needs nvcc (not a GPU): compiled in only where the build has it.
#if defined(HPCLAB_HPC_H_PROBE)
TEST_CASE("builds: two versions of a file are two programs, and the first version again is the first program")
{
    const LabInfo& lab = lab_of("vecadd3");
    const TempDir dir;
    Toolchain tc = Toolchain::configured();
    tc.cache_dir = dir.path() / "cache";
    const std::string text = read_text_file(lab.solution_source()).value();
    const auto file = dir.write("mine.cu", text);
    const BuildResult first = build_lab_program(tc, lab, file, "student");
    REQUIRE(first.ok);
    dir.write("mine.cu", text + "\n// saved again\n");
    const BuildResult second = build_lab_program(tc, lab, file, "student");
    REQUIRE(second.ok);
    CHECK(second.program != first.program);
    CHECK(std::filesystem::exists(first.program));  // still there for whoever runs it
    dir.write("mine.cu", text);
    const BuildResult again = build_lab_program(tc, lab, file, "student");
    CHECK(again.cached);
    CHECK(again.program == first.program);
    CHECK(again.facts.kernels_known);
    CHECK(again.facts.defines_kernel("_Z3addPKiS0_Pii"));
}
#endif
