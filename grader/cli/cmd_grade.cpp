// hpclab grade and hpclab merge: parse, call grade/, print.
#include "commands.h"

#include "grade/class_report.h"
#include "grade/grade_class.h"
#include "gpu/gpu_turns.h"
#include "util/escape.h"

#include <fmt/format.h>

#include <unistd.h>

#include <map>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

void print_found(const ClassFolder& cls)
{
    std::map<std::string, int> per_lab;
    int files = 0, skeletons = 0;
    for (const Student& s : cls.students)
        for (const Submission& sub : s.submissions) {
            ++files;
            ++per_lab[sub.lab->id];
            skeletons += sub.unchanged_skeleton;
        }
    std::string labs;
    for (const auto& [lab, n] : per_lab) labs += fmt::format("{}{} {}", labs.empty() ? "" : ", ", lab, n);
    fmt::print("Found {} students, {} lab files ({}){}.\n", cls.students.size(), files, labs.empty() ? "none" : labs,
               skeletons ? fmt::format("; {} of them the skeleton as handed out, not graded", skeletons) : "");
    if (!cls.ignored.empty()) {
        fmt::print("Ignored {}:\n", cls.ignored.size());
        for (const Ignored& g : cls.ignored) fmt::print("  {}: {}\n", for_terminal(g.path.string()), for_terminal(g.why));
    }
    if (!cls.left_alone.empty()) {
        fmt::print("Left alone, not .cu files ({}):\n", cls.left_alone.size());
        for (const auto& p : cls.left_alone) fmt::print("  {}\n", for_terminal(p.string()));
    }
    fmt::print("{}\n", class_folder_count(cls));
}

std::string duration(double s)
{
    if (s < 60) return fmt::format("{:.0f}s", s);
    return fmt::format("{}m{:02}s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
}

// A bar redrawn in place on a terminal; a plain line per file otherwise.
std::function<void(const ClassProgress&)> progress_printer()
{
    const bool tty = isatty(STDOUT_FILENO);
    // The files compile while the first are checked: once checks come, the bar is theirs.
    return [tty, checking = false](const ClassProgress& p) mutable {
        checking = checking || p.phase == ClassProgress::Phase::checking;
        if (checking && p.phase == ClassProgress::Phase::compiling) return;
        const char* what = p.phase == ClassProgress::Phase::compiling ? "compiled" : "checked";
        if (!tty) {
            if (p.phase == ClassProgress::Phase::checking) fmt::print("  [{}/{}] {}\n", p.done, p.total, p.last);
            std::fflush(stdout);
            return;
        }
        const int width = 30, filled = p.total ? width * p.done / p.total : width;
        const double eta = p.done ? p.elapsed_s / p.done * (p.total - p.done) : 0;
        fmt::print("\r\033[K[{}{}] {}/{} {}, {} left  {}", std::string(filled, '#'), std::string(width - filled, '.'),
                   p.done, p.total, what, p.done ? duration(eta) : "?", p.last.substr(0, 40));
        if (p.done == p.total) fmt::print("\n");
        std::fflush(stdout);
    };
}

void print_outputs(const GradeFolder& out, const ClassOutputs& o)
{
    fmt::print("\n{:<24} {:>12}  {}\n", "student", "points", "held for a person");
    for (const BookRow& r : o.book.rows) {
        std::string held;
        for (const std::string& h : r.held) held += (held.empty() ? "" : "; ") + h;
        const std::string late = r.late && r.late->penalty > 0 ? fmt::format(" (late: -{:g})", r.late->penalty) : "";
        fmt::print("{:<24} {:>12}  {}\n", for_terminal(r.student), fmt::format("{:g} / {:g}{}", r.final_points(), r.max, late),
                   for_terminal(held));
    }
    if (o.roster_match) {
        const RosterMatch& m = *o.roster_match;
        fmt::print("\nRoster: {} students matched, {} not in the roster{}, {} matching several rows{}; {} roster rows "
                   "without a submission.\n",
                   m.row_of.size(), m.unmatched.size(),
                   m.unmatched.empty() ? "" : " (" + for_terminal(fmt::format("{}", fmt::join(m.unmatched, ", "))) + ")",
                   m.ambiguous.size(), m.ambiguous.empty() ? "" : " (see gradebook.csv)", m.rows_without_submission);
    }
    for (const std::string& u : o.unreadable) fmt::print(stderr, "hpclab: {}: not a result, left out\n", for_terminal(u));
    for (const std::string& s : o.lateness_unknown)
        fmt::print(stderr, "hpclab: the lateness CSV names {}, who has no row in the gradebook\n", for_terminal(s));
    const auto shown = [&](const char* name) { return for_terminal((out.root() / name).string()); };
    fmt::print("\nGradebook: {}\nPer-task verdicts: {}\nClass report: {} (with similar files and the leaderboard)\n"
               "Similar files, every pair: {}\nFeedback per student: {}/<student>/feedback.md "
               "(and results.json for Gradescope)\n",
               shown("gradebook.csv"), shown("verdicts.csv"), shown("report.md"), shown("similarity.csv"),
               shown("students"));
}

std::string gpus_text(const std::vector<GpuInfo>& gpus)
{
    if (!gpus.front().present) return "no GPU (they compile; checks say not_run)";
    if (gpus.size() == 1 && !gpus.front().pinned) return gpus.front().name;
    std::string out;
    for (const GpuInfo& g : gpus) out += fmt::format("{}GPU {} ({})", out.empty() ? "" : ", ", g.index, g.name);
    return out;
}

void print_start(const GradingStart& s)
{
    if (s.gpus.size() > 1)
        fmt::print("Course seed {}. The class graded in {} chunks, one per GPU, on {}.\n", s.seed, s.gpus.size(),
                   gpus_text(s.gpus));
    else fmt::print("Course seed {}. {} files to grade on {}.\n", s.seed, s.files, gpus_text(s.gpus));
    if (s.uncovered)
        fmt::print("{} results of an earlier run that ended before its GPU's health check: checked by one now.\n",
                   s.uncovered);
    for (const std::string& line : s.out_of_service) fmt::print("{}\n", line);
    for (std::size_t k = 0; k < s.chunk_logs.size(); ++k)
        fmt::print("Chunk {} on GPU {} ({}): its log, as it goes: {}\n", k, s.gpus[k].index, s.gpus[k].name,
                   for_terminal(s.chunk_logs[k].string()));
    if (s.turns_only_in_process)
        fmt::print(stderr, "hpclab grade: the GPU turns' lock files in {} cannot be used: a timed phase on one GPU may "
                   "meet another GPU's programs, which slow it\n",
                   for_terminal(GpuTurns::lock_folder().string()));
    std::fflush(stdout);
}

void print_totals(const ClassRunTotals& t, std::size_t files)
{
    if (t.covered_leftovers) fmt::print("{} results of the earlier run kept: the GPU is healthy.\n", t.covered_leftovers);
    if (t.redone_leftovers)
        fmt::print("{} results of the earlier run graded again: no healthy GPU could vouch for them.\n", t.redone_leftovers);
    if (!t.out_of_service.empty()) fmt::print("Out of service now: {}\n", t.out_of_service);
    if (files)
        fmt::print("Graded {} files: compile {} wall (the checks began with the first file compiled), checks {} wall "
                   "in {} waves, of which the GPU's health after each wave {:.0f} s (summed over checks: runs {:.0f} s, "
                   "sanitizer {:.0f} s, timing {:.0f} s).\n",
                   t.checked, duration(t.compile_wall_s), duration(t.check_wall_s), t.waves, t.health_wall_s, t.run_s,
                   t.sanitizer_s, t.timing_s);
    if (t.gpu.alone_turns > 0)
        fmt::print("The GPU's time: {:.0f} s alone for {} timed phases and big sizes, {:.0f} s shared by correctness and sanitizer "
                   "runs, {:.0f} s with no program's turn (builds, judging, programs starting).\n",
                   t.gpu.alone_s, t.gpu.alone_turns, t.gpu.shared_s, t.gpu.free_s);
}

void print_chunks(const GradeClassOutcome& o, const fs::path& out)
{
    for (const LocalChunkEnd& c : o.chunk_ends) {
        fmt::print("Chunk {} on GPU {} ({}): {}.\n", c.chunk, c.gpu.index, c.gpu.name, for_terminal(c.how));
        for (const std::string& line : c.summary) fmt::print("  {}\n", for_terminal(line));
    }
    if (o.incomplete_chunks.empty()) return;
    fmt::print("{} of {} chunks are not complete (a file with no result, or a grader error).\n", o.incomplete_chunks.size(),
               o.chunk_ends.size());
    bool moved = false;
    for (const LocalChunkEnd& c : o.chunk_ends)
        if (!c.elsewhere.empty()) {
            fmt::print("Chunk {}'s GPU {} is out of service: grade that chunk on a healthy GPU, then merge:\n  {}\n  "
                       "hpclab merge {}\n",
                       c.chunk, c.gpu.index, for_terminal(c.elsewhere), for_terminal(out.string()));
            moved = true;
        }
    fmt::print("{}\n", moved ? "Any other chunk: run the same command again." : "Run the same command again.");
}

int print_slurm(const SlurmWritten& w)
{
    const std::string script = for_terminal(w.script.string()), out = for_terminal(w.script.parent_path().parent_path().string());
    fmt::print("Slurm job array written: {} ({} chunks, course seed {}).\n", script, w.chunks, w.seed);
    if (w.job.empty()) fmt::print("Submit it with:  sbatch {}\nThen, when it has run:  hpclab merge {}\n", script, out);
    else fmt::print("Submitted: job {}. When it has run:  hpclab merge {}\n", for_terminal(w.job), out);
    return kPass;
}

// --expect's comparison: each row not as expected, and the count.
int print_expected(const ExpectedVerdicts& e)
{
    for (const std::string& w : e.wrong) fmt::print("{}\n", for_terminal(w));
    const int wrong = static_cast<int>(e.wrong.size());
    fmt::print("expected verdicts: {} of {} as expected{}\n", e.rows - wrong - e.unjudged, e.rows,
               e.unjudged ? fmt::format(", {} not run (no GPU)", e.unjudged) : "");
    return wrong ? kFail : e.unjudged ? kSkipped : kPass;
}

// The request's errors as the command's: a bad request exits 2, a machine that cannot grade 4.
GradeClassOutcome call_grade_class(const GradeClassRequest& request, const GradeClassHost& host)
{
    try {
        return grade_class(request, host);
    } catch (const GradeClassError& e) {
        if (e.kind == GradeClassError::Kind::usage) throw UsageError(e.what());
        throw SetupError(e.what());
    }
}

}  // namespace

int cmd_grade(Context& ctx, const GradeArgs& a)
{
    const GradeClassHost host {.catalog = ctx.catalog(), .toolchain = ctx.toolchain(),
                               .use_course_thresholds = [&ctx](const CourseThresholds& t, const fs::path& file) {
                                   ctx.use_course_thresholds(t, file);
                               },
                               .unmet_need = unmet_need,
                               .on_found = [](const ClassSource& source, const ClassFolder& cls) {
                                   fmt::print("{}", class_source_summary(source));
                                   print_found(cls);
                               },
                               .on_start = print_start, .on_progress = progress_printer()};
    const GradeClassOutcome o = call_grade_class(a, host);
    switch (o.kind) {
    case GradeClassOutcome::Kind::listed: return kPass;
    case GradeClassOutcome::Kind::slurm_written: return print_slurm(o.slurm);
    case GradeClassOutcome::Kind::skipped:
        fmt::print("Skipped: this grading {}.\n", o.skipped_why);
        ctx.skip_because(o.skipped_why);
        return kSkipped;
    case GradeClassOutcome::Kind::graded: break;
    }
    print_totals(o.totals, o.start.files);
    print_chunks(o, fs::absolute(a.out));
    for (const std::string& line : o.gpus_after) fmt::print("{}\n", line);
    print_outputs(GradeFolder(fs::absolute(a.out)), o.outputs);
    if (o.failed_to_save()) return kGraderError;
    return o.expected ? print_expected(*o.expected) : kPass;
}

int cmd_merge(Context& ctx, const std::string& out_dir)
{
    const GradeClassHost host {.catalog = ctx.catalog(), .toolchain = ctx.toolchain(),
                               .use_course_thresholds = [&ctx](const CourseThresholds& t, const fs::path& file) {
                                   ctx.use_course_thresholds(t, file);
                               }};
    MergedGrading m;
    try {
        m = merge_grading(out_dir, host);
    } catch (const GradeClassError& e) {
        throw UsageError(e.what());
    }
    fmt::print("Merged {} results of {} chunks.\n", m.merged.results.size(), m.chunks);
    print_outputs(GradeFolder(fs::absolute(out_dir)), m.merged.outputs);
    if (m.merged.incomplete.empty()) {
        fmt::print("Every chunk is complete.\n");
        return kPass;
    }
    fmt::print("\n{} of {} chunks are not complete (a file with no result, or a grader error). Submit them again:\n  {}\n"
               "then run hpclab merge {} again.\n",
               m.merged.incomplete.size(), m.chunks, for_terminal(m.resubmit), for_terminal(out_dir));
    return kFail;
}

}  // namespace hpclab::cli
