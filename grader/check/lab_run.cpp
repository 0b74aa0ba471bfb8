#include "check/lab_run.h"

#include "check/gpu_turns.h"
#include "course/exit_status.h"
#include "run/run_recipe.h"
#include "util/shown_path.h"

#include <fmt/format.h>

#include <cstdio>

namespace hpclab {

namespace fs = std::filesystem;

fs::path source_of(const LabInfo& lab, Variant v)
{
    std::error_code ec;
    if (v == Variant::solution && !fs::exists(lab.solution_source(), ec))
        throw UsageError("there is no solution of " + lab.id + " here (" + lab.solution_source().string() +
                         "): the student kit has none. 'hpclab hint " + lab.id + "' and docs/" + lab.id +
                         ".md help instead");
    return v == Variant::solution ? lab.solution_source() : lab.student_source();
}

const char* variant_name(Variant v) { return v == Variant::solution ? "solution" : "student"; }

std::optional<fs::path> build_program(const BuildSite& site, const LabInfo& lab, Variant v, bool quiet)
{
    return build_program(site, lab, source_of(lab, v), variant_name(v), quiet);
}

std::optional<fs::path> build_program(const BuildSite& site, const LabInfo& lab, const fs::path& src,
                                      const std::string& build, bool quiet)
{
    const BuildResult b = build_and_report(site, lab, src, build, quiet, {});
    if (!b.ok) return std::nullopt;
    return b.program;
}

BuildResult build_and_report(const BuildSite& site, const LabInfo& lab, const fs::path& src, const std::string& build,
                             bool quiet, const std::vector<std::string>& link_libraries)
{
    const Toolchain& tc = site.toolchain;
    const std::string shown = shown_path(src, site.root);
    if (!tc.available()) throw UsageError("cannot build lab programs: " + tc.unavailable);
    if (!quiet) fmt::print("Building {} ... ", shown);
    std::fflush(stdout);
    const BuildResult b = build_lab_program(tc, lab, src, build, link_libraries);
    if (!b.ok && b.setup_problem) {
        if (!quiet) fmt::print("failed\n");
        std::fflush(stdout);
        throw SetupError("could not build " + shown + " (a set-up problem, not the code):\n" +
                         trim_diagnostics(b.diagnostics, site.root, 20));
    }
    if (!b.ok) {
        if (!quiet) fmt::print("failed\n");
        std::fflush(stdout);
        fmt::print(stderr, "\nCompile error in {}:\n{}", shown, trim_diagnostics(b.diagnostics, site.root, 40));
        return b;
    }
    if (!quiet) {
        if (b.cached) fmt::print("up to date\n");
        else fmt::print("done ({:.1f} s)\n", b.seconds);
        if (!b.diagnostics.empty())
            fmt::print(stderr, "Compiler warnings:\n{}", trim_diagnostics(b.diagnostics, site.root, 20));
    }
    return b;
}

RunRequest run_request(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                       const Params& params, const RunOptions& options)
{
    const RunTarget target {.lab = &lab,
                            .task = &task,
                            .program = program,
                            .params = params,
                            .seed = options.seed ? *options.seed : fresh_seed(),
                            .gpu_memory_bytes = gpu.memory_bytes,
                            .gpu_minor = gpu.minor,
                            .big = options.big};
    RunRequest req = options.timed ? timed_run(target, {.reps = task.timing_reps}) : correctness_run(target);
    req.fill_inputs = options.fill_inputs;
    req.on_first_outputs = options.on_first_outputs;
    return req;
}

RunReport run_one(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                  const Params& params, const RunOptions& options)
{
    // A shared turn on the GPU while the program runs (check/gpu_turns.h):
    // on a lab server, another student's check times its calls alone.
    RunRequest req = run_request(gpu, lab, task, program, params, options);
    GpuTurns turns(gpu.uuid);
    return while_program_runs(&turns, false, req, [&] { return run_task(req); });
}

}  // namespace hpclab
