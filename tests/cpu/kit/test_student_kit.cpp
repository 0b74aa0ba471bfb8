// hpclab export-student-kit: the kit holds the course without its answers,
// the course's own skeletons, the speed baselines compiled (and linked as
// they are), its own README and tests, one git commit; and hpclab run in it
// says plainly that there are no solutions.
#include "kit/student_kit.h"
#include "student/committed_file.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::course_root;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

ProcessResult hpclab_in(const fs::path& kit, std::vector<std::string> args, const fs::path& state)
{
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.set_env = {{"HPCLAB_ROOT", kit.string()}, {"HPCLAB_STATE", state.string()}, {"CUDA_VISIBLE_DEVICES", ""}};
    spec.wall_limit_s = 300;
    return run_process(spec);
}

}  // namespace

TEST_CASE("student kit: no answers in it, the course's skeletons, the baselines compiled and linked as they are")
{
    const Toolchain tc = Toolchain::configured();
    if (!tc.available()) {
        MESSAGE("no CUDA compiler: the kit's baselines cannot be compiled here");
        return;
    }
    const TempDir d;
    const fs::path kit = d.path() / "kit";
    const KitResult r = export_student_kit(tc, catalog(), {.out = kit, .architectures = tc.architectures});
    // Every lab's but a program lab's (its kernel is timed from the lab's own header).
    const auto timed_labs = std::count_if(catalog().labs().begin(), catalog().labs().end(),
                                          [](const LabInfo& lab) { return !lab.owns_main(); });
    CHECK(r.baselines.size() == static_cast<std::size_t>(timed_labs));
    for (const char* absent : {"solutions", "bench", "tests/broken", "tests/hostile", "examples", "scripts", ".ci"})
        CHECK_MESSAGE(!fs::exists(kit / absent), absent);
    CHECK(has(read_text_file(kit / "README.md").value_or(""), "This kit has no solutions."));
    CHECK(has(read_text_file(kit / "tests" / "CMakeLists.txt").value_or(""), "hpclab selftest ${id} --skeleton"));

    const Catalog kit_catalog = Catalog::load(kit);
    for (const LabInfo& lab : kit_catalog.labs()) {
        CAPTURE(lab.id);
        bool from_course = false;
        CHECK(read_text_file(lab.student_source()) == course_skeleton(course_root(), *catalog().find(lab.id), from_course));
        CHECK(from_course);  // from git, or in a copy without history from labs/ by its blob id
        if (!lab.owns_main()) CHECK(lab.baseline_source == kit / "baselines" / (lab.id + ".o"));
        CHECK(fs::exists(kit / "baselines" / (lab.id + ".o")) != lab.owns_main());  // no solution, compiled or not
    }
    // The compiled baseline links into a lab program whose kernels hpclab reads, as from a source.
    const LabInfo& matmul = *kit_catalog.find("matmul");
    Toolchain kit_tc = tc;
    kit_tc.cache_dir = d.path() / "cache";
    const BuildResult b = build_lab_program(kit_tc, matmul, matmul.baseline_source, "baseline");
    INFO(b.diagnostics);
    CHECK(b.ok);
    CHECK(fs::exists(b.program));
    CHECK(b.facts.kernels_known);
    CHECK_FALSE(b.facts.kernels.empty());

    if (r.committed) {
        CHECK(committed_content(kit, "labs/vecadd3/vecadd3.cu") == read_text_file(kit / "labs/vecadd3/vecadd3.cu"));
    }
    CHECK_THROWS_WITH_AS(export_student_kit(tc, catalog(), {.out = kit}), doctest::Contains("not empty"),
                         std::runtime_error);

    // hpclab there: fourteen labs, none solved; no solution to run; reset finds the kit's skeleton.
    const fs::path state = d.path() / "state";
    const ProcessResult list = hpclab_in(kit, {"list"}, state);
    CHECK(list.exit_code == 0);
    CHECK(has(list.out, "0 of 14 labs solved"));
    const ProcessResult solution = hpclab_in(kit, {"run", "vecadd3", "--solution"}, state);
    CHECK(solution.exit_code == 2);
    CHECK(has(solution.err, "the student kit has none"));
    if (r.committed) {
        const std::string skeleton = read_text_file(kit / "labs/vecadd3/vecadd3.cu").value();
        std::ofstream(kit / "labs/vecadd3/vecadd3.cu") << "// my attempt\n";
        const ProcessResult reset = hpclab_in(kit, {"reset", "vecadd3"}, state);
        INFO(reset.out, reset.err);
        CHECK(reset.exit_code == 0);
        CHECK(read_text_file(kit / "labs/vecadd3/vecadd3.cu") == skeleton);
    }
}
