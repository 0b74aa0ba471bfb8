#include "view/check_view.h"

#include "check/evidence.h"
#include "check/profile.h"
#include "course/profile_rules.h"
#include "util/escape.h"
#include "util/shown_path.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// One mark per size: what each fresh run gave.
void print_size_marks(const TaskCheck& t)
{
    std::string line = " ";
    for (const auto& r : t.runs) {
        const std::string ends = r.ends == InputEnds::none ? "" : fmt::format(" ({})", input_ends_name(r.ends));
        std::string mark = fmt::format(" {}{} {}", format_params(r.size.params), ends, r.report.passed() ? "ok" : "FAIL");
        if (line.size() + mark.size() > 100) {
            fmt::print("{}\n", line);
            line = " ";
        }
        line += mark;
    }
    if (!t.runs.empty()) fmt::print("{}\n", line);
}

// What the code launched, what the sanitizer said, how fast it was.
void print_observations(const TaskCheck& t)
{
    if (t.traced) {
        if (t.launches.empty()) fmt::print("  launched: no kernel\n");
        for (const auto& k : t.launches) fmt::print("  launched: {}\n", describe_launch(k));
        if (t.launch_count > t.launches.size()) fmt::print("  ... {} launches in all\n", t.launch_count);
    }
    for (const auto& s : t.sanitizer)
        fmt::print("  {} ({}): {}\n", s.tool, format_params(s.size.params),
                   s.findings.errors > 0 ? fmt::format("{} error(s){}", s.findings.errors,
                                                       s.findings.location.empty() ? "" : " at " + s.findings.location)
                   : s.report.status == RunStatus::completed ? std::string("clean")
                                                             : "did not finish: " + s.report.status_message);
    if (const auto& tm = t.timing)
        fmt::print("  speed at {}: {:.3f} ms vs {:.3f} ms: {:.2f}x {} (spread {:.2f}..{:.2f}; needs {:.2f}x{}){}\n",
                   format_params(tm->size), tm->student_ms.empty() ? 0.0 : tm->student_ms.front(),
                   tm->baseline_ms.empty() ? 0.0 : tm->baseline_ms.front(), tm->ratio, tm->baseline, tm->ratio_low,
                   tm->ratio_high, tm->threshold,
                   tm->threshold_set_by.empty() ? "" : ", set by " + tm->threshold_set_by.filename().string(),
                   tm->unreliable ? " [unreliable: " + tm->unreliable_why + "]" : "");
}

void print_verdict(const TaskVerdict& v)
{
    if (v.verdict == Verdict::pass) {
        fmt::print("  => PASS\n");
        return;
    }
    if (v.verdict == Verdict::not_run) {
        fmt::print("  => NOT RUN: {}\n", v.reason.message);
        return;
    }
    fmt::print("  => {}{}\n", upper(verdict_title(v.verdict)), v.reason.where.empty() ? "" : " at " + v.reason.where);
    fmt::print("{}", indent(v.reason.message, "     "));
    if (!v.reason.hint.empty()) fmt::print("     {}\n", v.reason.hint);
    for (std::size_t i = 0; i < std::min<std::size_t>(v.also.size(), 3); ++i)
        fmt::print("     also: {}{}: {}\n", verdict_title(v.also[i].kind),
                   v.also[i].where.empty() ? "" : " at " + v.also[i].where,
                   v.also[i].message.substr(0, v.also[i].message.find('\n')));
}

// The profiler's sentence (check/profile.h): the lesson's words, or why
// none; what it measured in a line, or (hpclab check --profile) a measure a
// line with what it means.
void print_profile(const TaskProfile& p, bool every_measure_explained)
{
    if (!p.inconclusive.empty()) {
        fmt::print("     profiler: inconclusive: {}\n", escaped_text(p.inconclusive, false));
        return;
    }
    fmt::print("     profiler ({}, {:.1f} s): {}\n", p.tool, p.seconds,
               p.sentence.empty() ? std::string(kNoSentence) : p.sentence);
    if (!every_measure_explained) {
        fmt::print("     measured: {}\n", measured_line(p));
        return;
    }
    for (const auto& [name, shown] : p.measured)
        fmt::print("       {:<30} {:>8}  {}\n", name, shown, find_profile_measure(name)->means);
}

}  // namespace

void print_check(const fs::path& root, const LabCheck& c, bool every_measure_explained)
{
    const LabInfo& lab = *c.lab;
    if (!c.build.ok && c.build.setup_problem) {
        fmt::print("\nhpclab could not build {}: a set-up problem, not your code:\n{}", shown_path(c.source, root),
                   trim_diagnostics(c.build.diagnostics, root, 30));
        fmt::print("\n=> GRADER ERROR. Tell your instructor, or fix the set-up (hpclab info shows it).\n");
        return;
    }
    if (!c.build.ok && c.overall == Verdict::compile_error) {
        fmt::print("\nCompile error in {}:\n{}", shown_path(c.source, root),
                   trim_diagnostics(c.build.diagnostics, root, 30));
        fmt::print("\n=> COMPILE ERROR. Fix the first error above (file:line). Stuck? hpclab hint {}\n", lab.id);
        return;
    }
    for (const auto& t : c.tasks) {
        fmt::print("\nTask {}: {}\n", t.task->id, t.task->title);
        print_size_marks(t);
        print_observations(t);
        print_verdict(t.verdict);
        if (t.profile) print_profile(*t.profile, every_measure_explained);
    }
    if (!c.sanitizer_note.empty()) fmt::print("\nSanitizer: {}\n", c.sanitizer_note);
    if (!c.answers_note.empty()) fmt::print("\nAnswers: {}\n", c.answers_note);
    if (!c.gpu_health_note.empty()) fmt::print("GPU after the runs: {}\n", c.gpu_health_note);
    const auto passed = std::count_if(c.tasks.begin(), c.tasks.end(),
                                      [](const TaskCheck& t) { return t.verdict.verdict == Verdict::pass; });
    std::string seconds;
    for (const CheckPhaseInfo& p : kCheckPhases)
        if (p.seconds) seconds += fmt::format("{} {:.1f} s, ", p.key, c.*p.seconds);
    fmt::print("\n{}: {} of {} tasks pass. {} (seed {}; {}total {:.1f} s)\n", lab.id, passed, c.tasks.size(),
               upper(verdict_title(c.overall)), c.seed, seconds, c.total_s);
}


// What the program printed, as it printed it (the student sees their own
// lines), then each judged line against hpclab's own value.
void print_program_check(const fs::path& root, const ProgramCheck& c, bool profile_asked)
{
    if (profile_asked)
        fmt::print("\n(--profile: this lab's file is the whole program, judged by what it prints; no task of it is "
                   "profiled)\n");
    if (!c.build.ok) {
        const bool setup = c.verdict == Verdict::grader_error;
        fmt::print("\n{} {}:\n{}", setup ? "hpclab could not build" : "Compile error in",
                   shown_path(c.source, root), trim_diagnostics(c.build.diagnostics, root, 30));
        fmt::print("\n=> {}\n", upper(verdict_title(c.verdict)));
        return;
    }
    if (!c.printed.empty()) fmt::print("\nYour program printed:\n{}", indent(escaped_text(c.printed, true), "  | "));
    if (c.measured)
        fmt::print("\nhpclab's own timing of the same kernel on this GPU: {:.6f} s (events), {:.6f} s "
                   "(cudaDeviceSynchronize), {:.6f} s (the launch alone)\n",
                   c.measured->events_s, c.measured->sync_s, c.measured->launch_s);
    if (c.judgement) {
        fmt::print("\n");
        for (const auto& line : c.judgement->lines)
            fmt::print("  {:<4} {}: {} (hpclab: {})\n", line.ok ? "ok" : "FAIL", line.label,
                       line.printed.empty() ? "not printed" : for_terminal(line.printed), for_terminal(line.expected));
        for (const auto& p : c.judgement->problems) fmt::print("  - {}\n", for_terminal(p));
    }
    fmt::print("\n=> {}\n", upper(verdict_title(c.verdict)));
    if (!c.message.empty()) fmt::print("{}", indent(escaped_text(c.message, true) + "\n", "     "));
    fmt::print("\n{}: {} (total {:.1f} s)\n", c.lab->id, upper(verdict_title(c.verdict)), c.total_s);
}

}  // namespace hpclab
