#include "kit/student_kit.h"

#include "kit/kit_docs.h"

#include "process/process.h"
#include "student/committed_file.h"
#include "util/parallel.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// Copied from the course, as tracked by git where it is a checkout (never a
// build folder, a student's progress or an image a run wrote).
// third_party: the vendored ZIP reader hpclab links (the kit's CMake adds it).
const std::vector<std::string> kKitPaths = {"CMakeLists.txt", "CMakePresets.json", "cmake",  "common",
                                            "grader",         "third_party",       "labs",   "docs",
                                            "setup",          "hpclab",            ".gitignore"};

bool skipped_name(const std::string& name)
{
    return name == ".hpclab" || name == ".git" || name.rfind("build", 0) == 0 || name == "__pycache__";
}

std::vector<fs::path> course_files(const fs::path& root)
{
    std::vector<fs::path> files;
    for (const std::string& p : kKitPaths) {
        const fs::path top = root / p;
        std::error_code ec;
        if (fs::is_regular_file(top, ec)) {
            files.push_back(p);
            continue;
        }
        for (fs::recursive_directory_iterator it(top, ec), end; !ec && it != end; it.increment(ec)) {
            if (it->is_directory() && skipped_name(it->path().filename().string())) {
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file()) files.push_back(it->path().lexically_relative(root));
        }
    }
    return files;
}

void write(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

std::string kit_readme(const Catalog& catalog)
{
    std::string labs;
    for (const LabInfo& lab : catalog.labs())
        labs += fmt::format("| {} | [{}](docs/{}.md) | {} |\n", lab.order, lab.id, lab.id, lab.title);
    return fmt::format(R"(# The CUDA Programming labs

{} hands-on labs after Moreno Marzolla's lecture "CUDA Programming" (University of Bologna,
CC BY-SA 4.0): from a kernel that says hello to a shared-memory matrix product. Each lab is a
skeleton `labs/<lab>/<lab>.cu` with numbered `TODO` steps, a walkthrough in `docs/`, and
`hpclab`, which runs your code on the GPU and checks it against a CPU reference.

## Quick start

On a Debian or Ubuntu machine with the CUDA Toolkit (nvcc) and an NVIDIA GPU:

```sh
./setup                              # installs what is missing and builds
cmake --workflow --preset default    # configures, builds and runs the tests
```

| # | lab | what you write |
|---|---|---|
{}
## Working on a lab

```sh
./hpclab list                # the labs and where you stand
./hpclab run vecadd3         # build your labs/vecadd3/vecadd3.cu, run it, check it, time it
./hpclab check vecadd3       # the verdict: every size, your launches, the sanitizer, the speed
./hpclab hint vecadd3        # the next hint, gentle first
./hpclab watch               # checks your lab every time you save it
./hpclab reset vecadd3       # your file back to the skeleton (yours is kept in .hpclab/backups/)
```

This kit has no solutions. The speed checks time your code against the course's own tuned
version of each lab, shipped compiled in `baselines/` for the GPUs of compute capability 7.5 and
newer; it needs the CUDA Toolkit of the major version it was built with (`baselines/manifest.json`).
The tests check that every skeleton compiles and, on a GPU, that it does not pass yet. The
walkthroughs in `docs/` are the course's: what they name that only the course has (a solution, a
file of `bench/`, a command with `--solution`) is marked "the course's: not in this kit".
)",
                       catalog.labs().size(), labs);
}

std::string kit_tests(const Catalog& catalog)
{
    std::string ids;
    for (const LabInfo& lab : catalog.labs()) ids += " " + lab.id;
    return fmt::format(R"(# The student kit's tests: every skeleton compiles (with nvcc), and on a
# GPU every skeleton fails its lab's checks (it is yours to fill in).
set(HPCLAB_TEST_ENVIRONMENT "HPCLAB_STATE=${{PROJECT_BINARY_DIR}}/test-state")
foreach(id IN ITEMS{})
  add_test(NAME compile.${{id}}.skeleton COMMAND hpclab build ${{id}})
  add_test(NAME gpu.${{id}}.skeleton COMMAND hpclab selftest ${{id}} --skeleton)
  set_tests_properties(compile.${{id}}.skeleton PROPERTIES LABELS cuda SKIP_RETURN_CODE 77 TIMEOUT 600
    RESOURCE_LOCK lab_build_${{id}} ENVIRONMENT "${{HPCLAB_TEST_ENVIRONMENT}}")
  set_tests_properties(gpu.${{id}}.skeleton PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900
    RESOURCE_LOCK lab_build_${{id}} ENVIRONMENT "${{HPCLAB_TEST_ENVIRONMENT}}")
endforeach()
)",
                       ids);
}

// Each lab's speed baseline compiled for the kit's architectures, a few
// nvcc at a time (one after another, they were most of an export's time).
void compile_baselines(const Toolchain& tc, const Catalog& catalog, const KitOptions& o, KitResult& r)
{
    Toolchain kit_tc = tc;
    kit_tc.architectures = o.architectures;
    // A lab without a speed baseline program (the kind whose kernel hpclab
    // times from the lab's own header) has none to compile.
    std::vector<const LabInfo*> labs;
    for (const LabInfo& lab : catalog.labs())
        if (!lab.baseline_source.empty()) labs.push_back(&lab);
    fs::create_directories(o.out / "baselines");
    if (o.say) o.say(fmt::format("compiling the speed baselines of {} labs for {}", labs.size(), o.architectures));
    std::vector<std::function<std::optional<std::string>()>> compiles;  // each: its diagnostics when it failed
    for (const LabInfo* lab : labs)
        compiles.push_back([&kit_tc, lab, &o]() -> std::optional<std::string> {
            std::string diagnostics;
            if (compile_lab_object(kit_tc, *lab, lab->baseline_source, o.out / "baselines" / (lab->id + ".o"),
                                   diagnostics))
                return std::nullopt;
            return diagnostics;
        });
    const int at_once = std::max(2, static_cast<int>(std::thread::hardware_concurrency()) / 2);
    const std::vector<std::optional<std::string>> failed = run_bounded(std::move(compiles), at_once);
    std::string manifest = fmt::format("{{\n  \"nvcc\": \"{}\",\n  \"architectures\": \"{}\",\n  \"labs\": {{",
                                       tc.nvcc_version, o.architectures);
    for (std::size_t i = 0; i < labs.size(); ++i) {
        const LabInfo& lab = *labs[i];
        if (failed[i])
            throw std::runtime_error(fmt::format("the speed baseline of {} ({}) does not compile for {}:\n{}", lab.id,
                                                 lab.baseline_source.string(), o.architectures, *failed[i]));
        const std::string from = lab.baseline_source.lexically_relative(catalog.root()).string();
        r.baselines.push_back(lab.id + ": " + from);
        manifest += fmt::format("{}\n    \"{}\": \"{}\"", i == 0 ? "" : ",", lab.id, from);
    }
    write(o.out / "baselines" / "manifest.json", manifest + "\n  }\n}\n");
}

// The kit's walkthroughs, each mention of what only the course has marked
// where it stands (kit/kit_docs.h), once the kit holds all it will.
void mark_course_only_docs(const fs::path& course, const fs::path& kit)
{
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(kit / "docs", ec))
        if (e.path().extension() == ".md")
            write(e.path(), mark_course_only(read_text_file(e.path()).value_or(""), course, kit));
}

bool commit_kit(const fs::path& kit)
{
    const auto git = [&](std::vector<std::string> args) {
        ProcessSpec s;
        s.argv = {"/usr/bin/env", "git", "-C", kit.string()};
        s.argv.insert(s.argv.end(), args.begin(), args.end());
        s.wall_limit_s = 60;
        const ProcessResult r = run_process(s);
        return r.exited() && r.exit_code == 0;
    };
    return git({"init", "-q"}) && git({"add", "-A"}) &&
           git({"-c", "user.name=hpclab", "-c", "user.email=hpclab@localhost", "commit", "-q", "-m",
                "The CUDA Programming labs: the student kit"});
}

}  // namespace

const std::vector<std::string>& kit_paths() { return kKitPaths; }

KitResult export_student_kit(const Toolchain& tc, const Catalog& catalog, const KitOptions& o)
{
    std::error_code ec;
    if (fs::exists(o.out, ec) && !fs::is_empty(o.out, ec))
        throw std::runtime_error(o.out.string() + ": not empty (a kit is written into a new folder)");
    if (!tc.available()) throw std::runtime_error("the speed baselines need the CUDA compiler: " + tc.unavailable);
    const fs::path root = catalog.root();
    KitResult r;
    try {
        for (const fs::path& rel : course_files(root)) {
            fs::create_directories((o.out / rel).parent_path());
            fs::copy_file(root / rel, o.out / rel, fs::copy_options::overwrite_existing);
            ++r.files;
        }
        // The skeletons as the course hands them out, whatever this checkout's labs/ holds now.
        for (const LabInfo& lab : catalog.labs()) {
            bool from_course = false;
            const auto skeleton = course_skeleton(root, lab, from_course);
            if (skeleton) write(o.out / "labs" / lab.id / lab.student_file, *skeleton);
            if (!skeleton || !from_course)
                r.warnings.push_back(fmt::format("{}: the skeleton is this checkout's {} (neither git nor labs/ holds "
                                                 "the one lab.json names): look at it before handing the kit out",
                                                 lab.id, (lab.lab_dir / lab.student_file).string()));
        }
        write(o.out / "README.md", kit_readme(catalog));
        write(o.out / "tests" / "CMakeLists.txt", kit_tests(catalog));
        compile_baselines(tc, catalog, o, r);
        mark_course_only_docs(root, o.out);
    } catch (...) {
        fs::remove_all(o.out, ec);  // nothing half made
        throw;
    }
    r.committed = commit_kit(o.out);
    if (!r.committed) r.warnings.push_back("git could not make the kit a repository: hpclab reset there needs one");
    return r;
}

}  // namespace hpclab
