// The steps the commands share: build a lab program, run one task at one
// size, and print what happened the way the course's programs do.
#pragma once

#include "context.h"
#include "util/rate_text.h"
#include "run/task_runner.h"

#include <cstdio>
#include <optional>

namespace hpclab::cli {

enum class Variant { student, solution };

std::filesystem::path source_of(const LabInfo& lab, Variant v);
const char* variant_name(Variant v);
std::string relative_to_root(const Context& ctx, const std::filesystem::path& p);

// Builds (or finds up to date) the lab program. On a compile error prints
// the compiler's messages and returns nothing.
std::optional<std::filesystem::path> build_program(Context& ctx, const LabInfo& lab, Variant v, bool quiet);
// The same for any source file of the lab, cached under `variant`.
std::optional<std::filesystem::path> build_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& src,
                                                   const std::string& variant, bool quiet);
// The same, linked with toolkit libraries (benchmark variants), with the
// build's result (its diagnostics too) for the caller's record.
BuildResult build_and_report(Context& ctx, const LabInfo& lab, const std::filesystem::path& src,
                             const std::string& variant, bool quiet, const std::vector<std::string>& link_libraries);

struct RunOptions {
    bool timed = false;             // warm-up plus the task's timing reps, L2 flushed
    std::optional<std::uint64_t> seed;
    bool big = false;               // the size is one of the big edge sizes
    std::function<void(CallBuffers&)> fill_inputs;
};

RunReport run_one(Context& ctx, const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
                  const Params& params, const RunOptions& options);

// "1.64 TB/s", "9.10 TFLOP/s", or "-" when the task has no work model.
std::string throughput(const RunReport& r);
// One word for a table: OK, WRONG, UNWRITTEN, CRASH, TIMEOUT, ...
std::string short_status(const RunReport& r);
// A full report of one run, for a person.
void print_run(std::FILE* out, const RunReport& r);

}  // namespace hpclab::cli
