// hpclab selftest: the maintainer check. Every task of the solution passes at
// every size; every task of the skeleton runs to the end and fails at every
// size, or a program as given to diagnose fails somewhere (check/lab_run.h).
#include "commands.h"
#include "program_lab_view.h"

#include "check/evidence.h"
#include "student/committed_file.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <set>

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

// One line per run; the whole report when it is not as expected
// (check/lab_run.h selftest_as_expected).
bool report_selftest_run(const LabInfo& lab, const TaskInfo& task, const SizeCase& size, bool timed, bool skeleton,
                         const RunReport& r)
{
    const TaskVerdict v = verdict_of_run(task, size.params, r);
    const bool as_expected = selftest_as_expected(lab, skeleton, r, v.verdict);
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
    if (!gpu.present || !ctx.toolchain().available()) {
        fmt::print("selftest {} {}: skipped, {}\n", lab.id, what,
                   gpu.present ? ctx.toolchain().unavailable : "no GPU (" + gpu.why_not + ")");
        return kSkipped;
    }
    if (const auto* whole = whole_program_commands(lab))
        return whole->selftest(ctx, lab, skeleton, skeleton ? committed_skeleton(ctx, lab) : source_of(lab, Variant::solution));
    const auto program = skeleton ? build_program(ctx.build_site(), lab, committed_skeleton(ctx, lab), "skeleton", false)
                                  : build_program(ctx.build_site(), lab, Variant::solution, false);
    if (!program) {
        fmt::print("selftest {} {}: FAILED, it does not compile\n", lab.id, what);
        return kFail;
    }
    int bad = 0, runs = 0;
    std::set<std::string> failing;  // tasks failing at some size
    const bool found_gpu = run_selftest(gpu, lab, *program, skeleton, big, [&](const SelftestRun& r) {
        ++runs;
        bad += !report_selftest_run(lab, *r.task, r.size, r.timed, skeleton, r.report);
        if (is_failure(verdict_of_run(*r.task, r.size.params, r.report).verdict)) failing.insert(r.task->id);
    });
    if (!found_gpu) return kSkipped;
    for (const TaskInfo& t : lab.tasks)
        if (program_as_given(lab, skeleton) && !failing.count(t.id) && ++bad)
            fmt::print("BAD  {} {}: the program as given passes at every size\n", lab.id, t.id);
    fmt::print("selftest {} {}: {} ({} runs, {} not as expected; seed per run is fresh)\n", lab.id, what,
               bad ? "FAILED" : "passed", runs, bad);
    return bad ? kFail : kPass;
}

}  // namespace hpclab::cli
