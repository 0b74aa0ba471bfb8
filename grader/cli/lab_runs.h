// The steps the run-like commands share (run, selftest, build): build a lab
// program, run one task at one size with the run recipes, and print what
// happened the way the course's programs do, judged with the verdict table.
#pragma once

#include "context.h"
#include "course/verdict.h"
#include "run/task_runner.h"
#include "util/rate_text.h"

#include <cstdio>
#include <optional>

namespace hpclab::cli {

// Which of the lab's files a command runs.
enum class Variant { student, solution };

std::filesystem::path source_of(const LabInfo& lab, Variant v);
const char* variant_name(Variant v);
std::string relative_to_root(const Context& ctx, const std::filesystem::path& p);

// Builds (or finds up to date) the lab program. On a compile error prints
// the compiler's messages and returns nothing.
std::optional<std::filesystem::path> build_program(Context& ctx, const LabInfo& lab, Variant v, bool quiet);
// The same for any source file of the lab, cached under `build`.
std::optional<std::filesystem::path> build_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& src,
                                                   const std::string& build, bool quiet);
// The same, linked with toolkit libraries (benchmark variants), with the
// build's result (its diagnostics too) for the caller's record.
BuildResult build_and_report(Context& ctx, const LabInfo& lab, const std::filesystem::path& src,
                             const std::string& build, bool quiet, const std::vector<std::string>& link_libraries);

struct RunOptions {
    bool timed = false;             // the timed recipe (run/run_recipe.h), as check and bench time
    std::optional<std::uint64_t> seed;
    bool big = false;               // the size is one of the big edge sizes
    std::function<void(CallBuffers&)> fill_inputs;
    std::function<void(const CallBuffers&)> on_first_outputs;
};

RunReport run_one(Context& ctx, const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
                  const Params& params, const RunOptions& options);
// The request run_one runs.
RunRequest run_request(Context& ctx, const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
                       const Params& params, const RunOptions& options);

// The exit status of a run's verdict (a size that does not fit is a usage error).
int exit_of(const TaskVerdict& v, const RunReport& r);
// One word or two for a table: OK, or the verdict's title in capitals.
std::string verdict_word(const TaskVerdict& v);

// "1.64 TB/s", "9.10 TFLOP/s", or "-" when the task has no work model.
std::string throughput(const RunReport& r);
// A full report of one run, for a person.
void print_run(std::FILE* out, const RunReport& r, const TaskVerdict& v);

}  // namespace hpclab::cli
