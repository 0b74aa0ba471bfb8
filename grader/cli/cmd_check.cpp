// hpclab check: one verdict per task, with where and why, and a grade record.
#include "commands.h"

#include "check/check.h"
#include "check/evidence.h"
#include "check/grade_record.h"
#include "check/profile.h"
#include "check/program_check.h"
#include "view/check_view.h"
#include "gpu/gpu_probe.h"
#include "process/sandbox.h"
#include "student/progress.h"
#include "student/state_dir.h"
#include "util/escape.h"
#include "util/text.h"
#include "util/timeline.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <optional>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

// The finding that decided the lab's verdict (its first task with that
// verdict), for `hpclab hint`; empty for a pass, and for a verdict that is not
// the student's to fix (hpclab's own failure, a held one: VerdictTraits::hint).
CheckEvidence deciding_evidence(const LabCheck& c)
{
    if (c.overall == Verdict::pass || !verdict_info(c.overall).traits.hint) return {};
    for (const TaskCheck& t : c.tasks) {
        if (t.verdict.verdict != c.overall) continue;
        const Finding& f = t.verdict.reason;
        // A slow task's profiler sentence is the likeliest bug: its own measure, in the lesson's words.
        const bool said = t.profile && !t.profile->sentence.empty();
        return {t.task->id, std::string(verdict_name(t.verdict.verdict)), f.where, f.message,
                said ? t.profile->sentence : f.hint};
    }
    return {};
}

// The grade record: always kept in the state folder's records/, and where
// --json says. The student's progress, for their own lab file only.
void keep_record(Context& ctx, const LabCheck& c, const CheckArgs& args)
{
    // Any bytes the student's file, compiler or program gave (Latin-1, binary
    // junk) go into the record as they can: invalid UTF-8 becomes U+FFFD.
    const std::string record = grade_record(c, ctx.toolchain())
                                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    const KeptRecord kept = keep_grade_record(record, state_dir(ctx.catalog().root()) / "records", c.lab->id);
    if (!kept.error.empty()) fmt::print(stderr, "hpclab: could not keep the check's record: {}\n", kept.error);
    else if (!args.quiet) fmt::print("Record: {}\n", relative_to_root(ctx, kept.path));
    if (!args.json.empty()) std::ofstream(args.json) << record << '\n';
    if (!args.file.empty() || args.variant != Variant::student || c.overall == Verdict::not_run) return;
    try {
        record_check(ctx.catalog().root(), c.lab->id, verdict_name(c.overall), c.overall == Verdict::pass,
                     deciding_evidence(c));
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: could not save your progress: {}\n", e.what());
    }
}

CheckOptions options_of(const LabInfo& lab, const CheckArgs& args)
{
    if (!args.task.empty() && !lab.find_task(args.task)) throw UsageError(lab.unknown_task(args.task));
    CheckOptions o;
    o.source = args.file.empty() ? source_of(lab, args.variant) : fs::path(args.file);
    std::error_code ec;
    if (!fs::is_regular_file(o.source, ec)) throw UsageError(o.source.string() + ": no such file");
    o.only_task = args.task;
    o.seed = args.seed;
    o.sanitizer = !args.no_sanitizer;
    o.timing = !args.no_timing;
    o.big = args.big;
    o.profile = args.profile ? ProfileWhen::every : args.no_profile ? ProfileWhen::never : ProfileWhen::slow;
    // Correctness runs side by side (a maintainer's knob: a shared GPU, the check measured).
    if (const char* e = std::getenv("HPCLAB_PARALLEL_RUNS"); e && std::atoi(e) > 0) o.parallel_runs = std::atoi(e);
    o.progress = [quiet = args.quiet](const std::string& line) {
        if (!quiet) fmt::print("  {}\n", line);
        std::fflush(stdout);
    };
    return o;
}

}  // namespace

int cmd_check(Context& ctx, const CheckArgs& args)
{
    const LabInfo& lab = ctx.lab(args.lab);
    std::optional<Verdict> expect;
    if (!args.expect.empty() && !(expect = verdict_from_name(args.expect)))
        throw UsageError("--expect: unknown verdict '" + args.expect + "' (hpclab verdicts lists them)");
    CheckOptions o = options_of(lab, args);
    o.gpu_service_dir = state_dir(ctx.catalog().root()) / "gpus";
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab: cannot build: {}\n", ctx.toolchain().unavailable);
        return kSkipped;
    }
    if (args.no_sandbox) disable_sandbox("--no-sandbox");
    if (const auto why = unmet_need(args.needs)) {
        fmt::print("Skipped: this check of {} {}.\n", lab.id, *why);
        ctx.skip_because(*why);
        return kSkipped;
    }
    // A test of a verdict only a run gives, with no GPU driver: skipped before a compile that could only
    // end "not run" (the broken and hostile sets' compiles were 60% of a CPU machine's test time).
    if (expect && verdict_info(*expect).kind != VerdictClass::build)
        if (const auto why = no_gpu_driver()) {
            fmt::print("Skipped: no GPU here: {}; {} is given only by a run on the GPU (not compiled).\n", *why,
                       verdict_name(*expect));
            return kSkipped;
        }
    // The compile needs no GPU: it runs while the driver starts (ctx.gpu()).
    o.started_build = start_student_build(ctx.toolchain(), lab, o.source);
    const GpuInfo& gpu = ctx.gpu();
    fmt::print("Checking {} ({}) on {}\n", lab.id, relative_to_root(ctx, o.source),
               gpu.present ? gpu.name : "no GPU: compile only");
    if (const auto why = sandbox_unavailable(); why && !args.quiet)
        fmt::print("No sandbox ({}): compiled and run as on your own machine.\n", *why);
    std::fflush(stdout);
    // The GPU's turns, with every other hpclab on this machine (another
    // student's check, a ctest run's other tests): the correctness runs
    // share the GPU, the timing has it alone (gpu/gpu_turns.h).
    std::optional<GpuTurns> turns;
    if (gpu.present) o.gpu_turns = &turns.emplace(gpu.uuid);
    const LabCheck c = check_lab(ctx.toolchain(), gpu, lab, o);
    const double since = timeline_clock();
    if (c.whole_program) print_program_check(ctx.catalog().root(), *c.whole_program, args.profile);
    else print_check(ctx.catalog().root(), c, args.profile);
    keep_record(ctx, c, args);
    timeline_note(since, "the check printed and its record kept");
    const int status = exit_of_check(ctx, c.overall, expect);
    if (args.expect_profile.empty()) return status;
    const ProfileExpectation profiled = profile_against(c, args.expect_profile);
    fmt::print("expected the profiler's sentence on {}: {}\n", args.expect_profile,
               profiled.met ? "yes" : "NO, got " + escaped_text(profiled.got));
    return status == kPass && !profiled.met ? kFail : status;
}

int exit_of_check(Context& ctx, Verdict got, std::optional<Verdict> expect)
{
    if (!expect) return verdict_info(got).exit_status;
    const bool as_expected = got == *expect;
    fmt::print("expected {}: {}\n", verdict_name(*expect),
               as_expected ? "yes" : "NO, got " + std::string(verdict_name(got)));
    if (got == Verdict::not_run) return kSkipped;
    if (got == Verdict::inconclusive && !as_expected) {
        ctx.skip_because("gave inconclusive: its timings were too close to call on this machine as it was");
        return kSkipped;
    }
    return as_expected ? kPass : kFail;
}

}  // namespace hpclab::cli
