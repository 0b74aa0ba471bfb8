#include "check/lab_run.h"

#include "course/random.h"
#include "check/evidence.h"
#include "gpu/gpu_turns.h"
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

std::future<std::optional<fs::path>> start_build(const BuildSite& site, const LabInfo& lab, Variant v)
{
    return std::async(std::launch::async, [site, &lab, v] { return build_program(site, lab, v, true); });
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
        if (!quiet) fmt::print("{}\n", build_outcome(b));
        std::fflush(stdout);
        throw SetupError("could not build " + shown + " (a set-up problem, not the code):\n" +
                         trim_diagnostics(b.diagnostics, site.root, 20));
    }
    if (!b.ok) {
        if (!quiet) fmt::print("{}\n", build_outcome(b));
        std::fflush(stdout);
        fmt::print(stderr, "\nCompile error in {}:\n{}", shown, trim_diagnostics(b.diagnostics, site.root, 40));
        return b;
    }
    if (!quiet) {
        fmt::print("{}\n", build_outcome(b));
        if (!b.diagnostics.empty())
            fmt::print(stderr, "Compiler warnings:\n{}", trim_diagnostics(b.diagnostics, site.root, 20));
    }
    return b;
}

std::string build_outcome(const BuildResult& b)
{
    if (!b.ok) return "failed";
    return b.cached ? "up to date" : fmt::format("done ({:.1f} s)", b.seconds);
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
    RunRequest req = options.timed ? timed_run(target, {.reps = task.timing_reps, .measure_harness = true})
                                   : correctness_run(target);
    req.fill_inputs = options.fill_inputs;
    req.on_first_outputs = options.on_first_outputs;
    return req;
}

namespace {

// `r`, or where another program's work could have made its finding
// (evidence.h, bent_by_load) the same request again with the GPU alone
// (run_recipe.h, confirming_run).
RunReport unless_bent(GpuTurns& turns, const TaskInfo& task, const Params& params, const RunRequest& req, RunReport r)
{
    if (!bent_by_load(task, params, r)) return r;
    RunRequest again = confirming_run(req);
    return while_program_runs(&turns, true, again, [&] { return run_task(again); });
}

}  // namespace

RunReport run_one(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                  const Params& params, const RunOptions& options)
{
    // A shared turn on the GPU while the program runs (gpu/gpu_turns.h):
    // on a lab server, another student's check times its calls alone.
    RunRequest req = run_request(gpu, lab, task, program, params, options);
    GpuTurns turns(gpu.uuid);
    RunReport r = while_program_runs(&turns, options.big, req, [&] { return run_task(req); });  // a big size: alone, as a check's
    return unless_bent(turns, task, params, req, std::move(r));
}

namespace {

// The runs of one task: every size (or only the big ones), and for the
// solution the demo size once more through the timed recipe.
std::vector<std::pair<SizeCase, bool>> selftest_plan(const TaskInfo& task, bool skeleton, BigSizes big)
{
    std::vector<std::pair<SizeCase, bool>> plan;  // size, timed
    for (const auto& s : task.sizes)
        if (s.big ? big != BigSizes::leave_out : big != BigSizes::only) plan.emplace_back(s, false);
    if (!skeleton && big != BigSizes::only) plan.emplace_back(SizeCase {task.demo, "the demo size, timed", false}, true);
    return plan;
}

}  // namespace

bool run_selftest(const GpuInfo& gpu, const LabInfo& lab, const fs::path& program, bool skeleton, BigSizes big,
                  const std::function<void(const SelftestRun&)>& each)
{
    // Every plain size of every task in one process, as a check runs them
    // (a CUDA context per process is what the time goes to); a size that did
    // not finish there, and the timed and big ones, each in a process of its own.
    struct Planned {
        const TaskInfo* task;
        SizeCase size;
        bool timed;
        RunRequest request;
    };
    std::vector<Planned> plan;
    std::vector<RunRequest> together;
    for (const auto& task : lab.tasks)
        for (const auto& [size, timed] : selftest_plan(task, skeleton, big)) {
            plan.push_back({&task, size, timed,
                            run_request(gpu, lab, task, program, size.params, {.timed = timed, .big = size.big})});
            if (!timed && !size.big) together.push_back(plan.back().request);
        }
    // Shared turns on the GPU with every other hpclab on this machine (a
    // ctest run's other tests, a student's check; gpu/gpu_turns.h), each
    // while its program runs: a check's timed calls never run beside them.
    // The timed runs too: a selftest asserts nothing about speed (their
    // claims are judged against the calls hpclab saw, with a slack for a busy host, run/claims.cpp),
    // and an alone turn, held while their inputs are made on the host,
    // kept every other test off the GPU.
    GpuTurns turns(gpu.uuid);
    std::vector<std::optional<RunReport>> reports(together.size());
    if (!together.empty())
        reports = while_program_runs(&turns, false, together.front(), [&] { return run_tasks_together(together); });
    std::size_t next_together = 0;
    for (Planned& p : plan) {
        std::optional<RunReport> r;
        if (!p.timed && !p.size.big) r = std::move(reports[next_together++]);
        if (!r) r = while_program_runs(&turns, p.size.big, p.request, [&] { return run_task(p.request); });
        r = unless_bent(turns, *p.task, p.size.params, p.request, std::move(*r));
        if (r->status == RunStatus::no_gpu) return false;
        each({p.task, p.size, p.timed, std::move(*r)});
    }
    return true;
}

bool program_as_given(const LabInfo& lab, bool skeleton) { return skeleton && !lab.answers.empty(); }

bool selftest_as_expected(const LabInfo& lab, bool skeleton, const RunReport& r, Verdict v)
{
    if (program_as_given(lab, skeleton)) return true;
    return skeleton ? r.status == RunStatus::completed && is_failure(v) : v == Verdict::pass;
}

}  // namespace hpclab
