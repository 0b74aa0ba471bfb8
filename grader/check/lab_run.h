// Building and running one lab program for a person at a terminal (run,
// selftest, build, bench): the build's messages printed as they come, and a
// run of one task at one size by its recipe (run/run_recipe.h), in a shared
// turn on the GPU.
#pragma once

#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "gpu/gpu_probe.h"
#include "run/task_runner.h"
#include "run/toolchain.h"

#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// Which of the lab's files a command runs.
enum class Variant { student, solution };

// The lab's file of `v`; a UsageError where the solution is not there (the student kit).
std::filesystem::path source_of(const LabInfo& lab, Variant v);
const char* variant_name(Variant v);

// What a build needs besides its source: the toolchain, and the course's
// folder, which the messages name files relative to.
struct BuildSite {
    const Toolchain& toolchain;
    std::filesystem::path root;
};

// Builds (or finds up to date) the lab program. On a compile error prints
// the compiler's messages and returns nothing.
std::optional<std::filesystem::path> build_program(const BuildSite& site, const LabInfo& lab, Variant v, bool quiet);
// build_program, quiet, on a thread of its own: several labs' programs build
// at once, each in a folder of its own.
std::future<std::optional<std::filesystem::path>> start_build(const BuildSite& site, const LabInfo& lab, Variant v);
// The same for any source file of the lab, cached under `build`.
std::optional<std::filesystem::path> build_program(const BuildSite& site, const LabInfo& lab,
                                                   const std::filesystem::path& src, const std::string& build,
                                                   bool quiet);
// The same, linked with toolkit libraries (benchmark variants), with the
// build's result (its diagnostics too) for the caller's record. A set-up
// problem (not the code's) is a SetupError.
BuildResult build_and_report(const BuildSite& site, const LabInfo& lab, const std::filesystem::path& src,
                             const std::string& build, bool quiet, const std::vector<std::string>& link_libraries);
// How a build went, as build_and_report says it after "Building <file> ... ":
// "failed", "up to date" or "done (1.2 s)".
std::string build_outcome(const BuildResult& b);

struct RunOptions {
    bool timed = false;             // the timed recipe (run/run_recipe.h), as check and bench time
    std::optional<std::uint64_t> seed;
    bool big = false;               // the size is one of the big edge sizes
    std::function<void(CallBuffers&)> fill_inputs;
    std::function<void(const CallBuffers&)> on_first_outputs;
};

// The request run_one runs.
RunRequest run_request(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& task,
                       const std::filesystem::path& program, const Params& params, const RunOptions& options);
RunReport run_one(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
                  const Params& params, const RunOptions& options);

// hpclab selftest's runs of a lab program (the solution, or the skeleton):
// every size of every task, the big ones (past 2^31 bytes) as `big` says,
// and for the solution the demo size once more through the timed recipe.
enum class BigSizes { include, leave_out, only };
struct SelftestRun {
    const TaskInfo* task = nullptr;
    SizeCase size;
    bool timed = false;
    RunReport report;
};
// Whether a selftest run is as it must be: the solution passes; the
// skeleton runs to its end and fails its check. A lab that hands out a
// program to diagnose (lab.json "answers": the program as given) has a
// skeleton that runs and is wrong somewhere: any one run of it is as it may
// be, and each task must fail at some size (one warp alone races no one).
bool selftest_as_expected(const LabInfo& lab, bool skeleton, const RunReport& r, Verdict v);
bool program_as_given(const LabInfo& lab, bool skeleton);
// Each run handed to `each` in the plan's order as it is known. False: a
// run found no GPU (and the rest were not run).
bool run_selftest(const GpuInfo& gpu, const LabInfo& lab, const std::filesystem::path& program, bool skeleton,
                  BigSizes big, const std::function<void(const SelftestRun&)>& each);

}  // namespace hpclab
