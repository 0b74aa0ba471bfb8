// hpclab export-student-kit: the kit holds the course without its answers,
// the course's own skeletons, the speed baselines compiled (and linked as
// they are), its own README and tests, one git commit; and hpclab run in it
// says plainly that there are no solutions.
#include "kit/kit_docs.h"
#include "kit/student_kit.h"
#include "student/committed_file.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

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
                                          [](const LabInfo& lab) { return lab.kind != LabKind::program; });
    CHECK(r.baselines.size() == static_cast<std::size_t>(timed_labs));
    for (const char* absent : {"solutions", "bench", "tests/broken", "tests/hostile", "examples", "scripts", ".ci"})
        CHECK_MESSAGE(!fs::exists(kit / absent), absent);
    CHECK(has(read_text_file(kit / "README.md").value_or(""), "This kit has no solutions."));
    CHECK(has(read_text_file(kit / "README.md").value_or(""), fmt::format("{} hands-on labs", catalog().labs().size())));
    // Every path and command the kit's walkthroughs quote is in the kit, or marked the course's where it stands.
    int marked = 0;
    for (const auto& e : fs::directory_iterator(kit / "docs")) {
        if (e.path().extension() != ".md") continue;
        const std::string page = read_text_file(e.path()).value_or("");
        CAPTURE(e.path().filename().string());
        CHECK(page == mark_course_only(page, course_root(), kit));  // nothing left to mark
        for (std::size_t at = page.find(kCourseOnlyMark); at != std::string::npos; at = page.find(kCourseOnlyMark, at + 1))
            ++marked;
    }
    CHECK(marked > 0);
    CHECK(has(read_text_file(kit / "tests" / "CMakeLists.txt").value_or(""), "hpclab selftest ${id} --skeleton"));
    // The kit configures as its ./setup configures it: every folder its CMake
    // adds is in it (third_party/ was not, and no kit built).
    ProcessSpec configure;
    configure.argv = {HPCLAB_CMAKE, "-S", kit.string(), "-B", (d.path() / "kit-build").string(),
                      "-DCMAKE_CUDA_ARCHITECTURES=" + tc.architectures};
    configure.wall_limit_s = 300;
    const ProcessResult configured = run_process(configure);
    INFO(configured.out, configured.err);
    CHECK(configured.exit_code == 0);

    const Catalog kit_catalog = Catalog::load(kit);
    for (const LabInfo& lab : kit_catalog.labs()) {
        CAPTURE(lab.id);
        bool from_course = false;
        CHECK(read_text_file(lab.student_source()) == course_skeleton(course_root(), *catalog().find(lab.id), from_course));
        CHECK(from_course);  // from git, or in a copy without history from labs/ by its blob id
        CHECK(lab.baseline_source ==
              (lab.kind == LabKind::program ? fs::path {} : kit / "baselines" / (lab.id + ".o")));
        CHECK(fs::exists(kit / "baselines" / (lab.id + ".o")) != (lab.kind == LabKind::program));  // no solution, compiled or not
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

    // hpclab there: every lab of the course, none solved; no solution to run; reset finds the kit's skeleton.
    const fs::path state = d.path() / "state";
    const ProcessResult list = hpclab_in(kit, {"list"}, state);
    CHECK(list.exit_code == 0);
    CHECK(has(list.out, fmt::format("0 of {} labs solved", catalog().labs().size())));
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

TEST_CASE("student kit: a walkthrough's mentions of what only the course has are marked where they stand")
{
    const TempDir d;
    const fs::path kit = d.path() / "kit";
    fs::create_directories(kit / "labs" / "vecadd3");
    std::ofstream(kit / "labs" / "vecadd3" / "vecadd3.cu") << "// skeleton\n";
    const std::string page = "# vecadd3\n"
                             "Read `labs/vecadd3/vecadd3.cu`, then `solutions/vecadd3/vecadd3.cu` and "
                             "`bench/<lab>/tuned.cu`; grades go to `grades/vecadd3.csv`.\n"
                             "Run `hpclab run vecadd3 --solution` or `hpclab run vecadd3`.\n"
                             "```sh\nhpclab run vecadd3 --solution\nhpclab check vecadd3\n```\n";
    const std::string marked = mark_course_only(page, course_root(), kit);
    const std::string m(kCourseOnlyMark);
    CHECK(has(marked, "`labs/vecadd3/vecadd3.cu`, then"));           // in the kit
    CHECK(has(marked, "`solutions/vecadd3/vecadd3.cu`" + m));       // the course's
    CHECK(has(marked, "`bench/<lab>/tuned.cu`" + m));               // by its part before the placeholder
    CHECK(has(marked, "`grades/vecadd3.csv`.\n"));                  // hpclab's output, no course path
    CHECK(has(marked, "`hpclab run vecadd3 --solution`" + m + " or `hpclab run vecadd3`.\n"));
    CHECK(has(marked, "hpclab run vecadd3 --solution   #" + m + "\nhpclab check vecadd3\n```\n"));
    CHECK(mark_course_only(marked, course_root(), kit) == marked);  // once
}
