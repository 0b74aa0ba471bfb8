// hpclab selftest: the maintainer check. Every task of the reference
// solution passes at every size; every task of the skeleton runs to the end
// and fails its check at every size (nothing is solved by accident).
#include "commands.h"

#include "check/evidence.h"
#include "check/gpu_turns.h"
#include "util/text_file.h"

#include "student/committed_file.h"

#include <fmt/format.h>

#include <fstream>
#include <optional>

namespace hpclab::cli {

namespace {

// The skeleton as committed, when the file in labs/ has local changes (a
// student's work): the check is about the course's skeleton, not theirs.
// Returns the file to build, and says which one it is.
std::filesystem::path committed_skeleton(Context& ctx, const LabInfo& lab)
{
    const std::filesystem::path working = lab.student_source();
    const std::string rel = relative_to_root(ctx, working);
    bool from_course = false;
    const auto committed = course_skeleton(ctx.catalog().root(), lab, from_course);
    if (!committed) return working;  // not a git checkout: the file is the skeleton
    if (read_text_file(working) == committed) return working;
    const std::filesystem::path dir = ctx.toolchain().cache_dir / lab.id / "committed-skeleton";
    std::filesystem::create_directories(dir);
    const std::filesystem::path copy = dir / lab.student_file;
    std::ofstream(copy, std::ios::binary) << *committed;
    fmt::print("note: {} has local changes (your work?): testing the skeleton as committed instead\n", rel);
    return copy;
}

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

// One line per run; the whole report when it is not as expected. The
// solution must pass; the skeleton must run to its end and fail its check.
bool report_selftest_run(const LabInfo& lab, const TaskInfo& task, const SizeCase& size, bool timed, bool skeleton,
                         const RunReport& r)
{
    const TaskVerdict v = verdict_of_run(task, size.params, r);
    const bool as_expected = skeleton ? r.status == RunStatus::completed && is_failure(v.verdict)
                                      : v.verdict == Verdict::pass;
    const std::string why = v.verdict == Verdict::pass ? "" : ": " + verdict_word(v) + " " + v.reason.message;
    fmt::print("{:<4} {} {} {} ({}) [{:.1f} s{}]{}\n", as_expected ? "ok" : "BAD", lab.id, task.id,
               format_params(size.params), size.why, r.process.wall_s,
               timed ? fmt::format(", {} per call", format_ms(r.median_gpu_ms())) : "", why.substr(0, why.find('\n')));
    std::fflush(stdout);
    if (as_expected) return true;
    if (!skeleton || r.status != RunStatus::completed) print_run(stdout, r, v);
    if (skeleton && v.verdict == Verdict::pass)
        fmt::print("     the skeleton passes this check: it solves the task by accident (or it is "
                   "your own solved lab, outside a git checkout)\n");
    return false;
}

}  // namespace

int cmd_selftest(Context& ctx, const std::string& lab_id, bool skeleton, BigSizes big)
{
    const LabInfo& lab = ctx.lab(lab_id);
    const char* what = skeleton ? "skeleton" : "solution";
    const GpuInfo& gpu = ctx.gpu();
    if (!gpu.present) {
        fmt::print("selftest {} {}: skipped, no GPU ({})\n", lab.id, what, gpu.why_not);
        return kSkipped;
    }
    if (!ctx.toolchain().available()) {
        fmt::print("selftest {} {}: skipped, {}\n", lab.id, what, ctx.toolchain().unavailable);
        return kSkipped;
    }
    const auto program = skeleton ? build_program(ctx.build_site(), lab, committed_skeleton(ctx, lab), "skeleton", false)
                                  : build_program(ctx.build_site(), lab, Variant::solution, false);
    if (!program) {
        fmt::print("selftest {} {}: FAILED, it does not compile\n", lab.id, what);
        return kFail;
    }

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
                            run_request(ctx.gpu(), lab, task, *program, size.params, {.timed = timed, .big = size.big})});
            if (!timed && !size.big) together.push_back(plan.back().request);
        }
    // Shared turns on the GPU with every other hpclab on this machine (a
    // ctest run's other tests, a student's check; check/gpu_turns.h), each
    // while its program runs: a check's timed calls never run beside them.
    // The timed runs too: a selftest asserts nothing about speed (their
    // claims are judged against the calls hpclab saw, with a slack for a busy host, run/claims.cpp),
    // and an alone turn, held while their inputs are made on the host,
    // kept every other test off the GPU.
    GpuTurns turns(gpu.uuid);
    std::vector<std::optional<RunReport>> reports(together.size());
    if (!together.empty())
        reports = while_program_runs(&turns, false, together.front(), [&] { return run_tasks_together(together); });
    int bad = 0, runs = 0;
    std::size_t next_together = 0;
    for (Planned& p : plan) {
        std::optional<RunReport> r;
        if (!p.timed && !p.size.big) r = std::move(reports[next_together++]);
        if (!r) r = while_program_runs(&turns, false, p.request, [&] { return run_task(p.request); });
        if (r->status == RunStatus::no_gpu) return kSkipped;
        ++runs;
        bad += !report_selftest_run(lab, *p.task, p.size, p.timed, skeleton, *r);
    }
    fmt::print("selftest {} {}: {} ({} runs, {} not as expected; seed per run is fresh)\n", lab.id, what,
               bad ? "FAILED" : "passed", runs, bad);
    return bad ? kFail : kPass;
}

}  // namespace hpclab::cli
