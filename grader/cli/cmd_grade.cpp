// hpclab grade and hpclab merge: parse, call grade/, print.
#include "commands.h"

#include "grade/class_grading.h"
#include "grade/class_report.h"
#include "intake/class_source.h"
#include "grade/lateness.h"
#include "grade/slurm_job.h"
#include "run/gpu_health.h"
#include "run/process.h"
#include "run/sandbox.h"
#include "run/task_runner.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/text.h"
#include "util/program_path.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <unistd.h>

#include <map>
#include <thread>

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

std::pair<int, int> parse_chunk(const std::string& text)
{
    int k = -1, n = 0;
    char slash = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &k, &slash, &n, &extra) != 3 || slash != '/' || n < 1 || k < 0 || k >= n)
        throw UsageError("--chunk '" + text + "': must be k/K with 0 <= k < K (what the Slurm script passes)");
    return {k, n};
}

// The settings of this grading: those the folder keeps, checked against
// what the command line asks; or new ones.
GradingSettings settings_for(const GradeFolder& out, const GradeArgs& a, const ClassFolder& cls, const GradingConfig& config)
{
    const auto kept = read_settings(out);
    std::optional<std::uint64_t> seed = a.seed ? a.seed : config.seed;
    if (kept) {
        if (kept->submissions != cls.root)
            throw UsageError(fmt::format("{} grades {}, not {}: grade this class into another folder", out.root().string(),
                                         kept->submissions.string(), cls.root.string()));
        if (seed && *seed != kept->seed)
            throw UsageError(fmt::format("{} was graded with the course seed {}, not {}: the same seed gives the same "
                                         "verdicts; grade into another folder for another seed",
                                         out.root().string(), kept->seed, *seed));
    }
    GradingSettings s = kept.value_or(GradingSettings {.submissions = cls.root, .seed = seed ? *seed : fresh_seed() & ((1ull << 53) - 1)});
    if (!config.file.empty()) s.config = fs::absolute(config.file);
    if (!a.roster.empty()) s.roster = fs::absolute(a.roster);
    if (!a.roster_keys.empty()) s.roster_keys = a.roster_keys;
    return s;
}

int write_slurm(Context& ctx, const GradeFolder& out, const GradeArgs& a, GradingSettings settings)
{
    settings.chunks = a.chunks;
    write_settings(out, settings);
    SlurmJob job {.hpclab = fs::read_symlink("/proc/self/exe"), .course_root = ctx.catalog().root(),
                  .submissions = settings.submissions, .out = fs::absolute(out.root()), .seed = settings.seed,
                  .chunks = a.chunks, .partition = a.partition, .time_limit = a.time_limit, .gres = a.gres, .cpus_per_task = a.cpus};
    if (!settings.config.empty()) job.grade_flags.insert(job.grade_flags.end(), {"--config", settings.config.string()});
    if (a.no_sanitizer) job.grade_flags.push_back("--no-sanitizer");
    if (a.no_timing) job.grade_flags.push_back("--no-timing");
    if (a.no_sandbox) job.grade_flags.push_back("--no-sandbox");
    const fs::path script = slurm_script_path(out.root());
    write_file_atomically(script, slurm_script(job));
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    fmt::print("Slurm job array written: {} ({} chunks, course seed {}).\n", script.string(), a.chunks, settings.seed);
    if (!a.submit) {
        fmt::print("Submit it with:  sbatch {}\nThen, when it has run:  hpclab merge {}\n", script.string(), out.root().string());
        return kPass;
    }
    const auto sbatch_exe = find_on_path("sbatch");
    if (!sbatch_exe) throw SetupError("--submit: no sbatch on the PATH (is this a Slurm cluster's login node?); the "
                                      "script is written: submit it from where sbatch is");
    ProcessSpec sbatch {.argv = {sbatch_exe->string(), "--parsable", script.string()}, .wall_limit_s = 60};
    const ProcessResult r = run_process(sbatch);
    if (!r.exited() || r.exit_code != 0)
        throw SetupError("sbatch did not take the job: " + (r.start_error.empty() ? r.err : r.start_error));
    fmt::print("Submitted: job {}. When it has run:  hpclab merge {}\n", r.out.substr(0, r.out.find('\n')), out.root().string());
    return kPass;
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

// The GPUs to grade on: "" the first one hpclab sees (as hpclab check); a
// list of indices ("0,1") or "all": each its own worker, its runs pinned to it.
std::vector<GpuInfo> gpus_to_use(Context& ctx, const std::string& list)
{
    if (list.empty()) return {ctx.gpu()};
    std::vector<GpuInfo> all = probe_gpus();
    if (!all.front().present) return {all.front()};
    std::vector<GpuInfo> chosen;
    if (list == "all") chosen = all;
    else
        for (const std::string& item : split(list, ',')) {
            char* end = nullptr;
            const long i = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || i < 0 || i >= static_cast<long>(all.size()))
                throw UsageError(fmt::format("--gpus {}: '{}' is not a GPU here (0..{}, or all)", list, item, all.size() - 1));
            for (const GpuInfo& g : chosen)
                if (g.index == i) throw UsageError(fmt::format("--gpus {}: GPU {} twice", list, i));
            chosen.push_back(all[static_cast<std::size_t>(i)]);
        }
    for (GpuInfo& g : chosen) g.pinned = true;
    return chosen;
}

std::string gpus_text(const std::vector<GpuInfo>& gpus)
{
    if (!gpus.front().present) return "no GPU (they compile; checks say not_run)";
    if (gpus.size() == 1 && !gpus.front().pinned) return gpus.front().name;
    std::string out;
    for (const GpuInfo& g : gpus) out += fmt::format("{}GPU {} ({})", out.empty() ? "" : ", ", g.index, g.name);
    return out;
}

std::vector<const Student*> selected_students(const ClassFolder& cls, const GradeArgs& a)
{
    std::vector<const Student*> out;
    if (!a.chunk.empty()) {
        const auto [k, n] = parse_chunk(a.chunk);
        out = students_of_chunk(cls, k, n);
    } else {
        for (const Student& s : cls.students) out.push_back(&s);
    }
    if (a.student.empty()) return out;
    for (const Student* s : out)
        if (s->id == a.student) return {s};
    throw UsageError("--student " + for_terminal(a.student) + ": no such student's folder in " + for_terminal(cls.root.string()));
}

// Every row of the expected verdicts against the book: as check --expect
// does, a row that could not run (no GPU) is neither right nor wrong.
int compare_expected(const Gradebook& book, const std::string& file)
{
    const auto text = read_text_file(file);
    if (!text) throw UsageError("--expect " + file + ": cannot be read");
    std::map<std::string, std::string> got;
    for (const BookRow& r : book.rows)
        for (std::size_t i = 0; i < book.columns.size(); ++i)
            got[r.student + " " + book.columns[i].name()] = cell_verdict(r.cells[i]);
    int wrong = 0, unjudged = 0, rows = 0;
    for (const CsvRow& row : parse_csv(*text)) {
        if (row.size() != 4 || row[0] == "student") continue;
        ++rows;
        const std::string key = row[0] + " " + row[1] + "." + row[2];
        const auto g = got.find(key);
        const std::string verdict = g == got.end() ? "(no such row)" : g->second;
        if (verdict == row[3]) continue;
        if (verdict == "not_run") ++unjudged;
        else {
            ++wrong;
            fmt::print("expected {}: {}, got {}\n", key, row[3], verdict);
        }
    }
    if (rows == 0) throw UsageError("--expect " + file + ": no rows of student,lab,task,verdict");
    fmt::print("expected verdicts: {} of {} as expected{}\n", rows - wrong - unjudged, rows,
               unjudged ? fmt::format(", {} not run (no GPU)", unjudged) : "");
    return wrong ? kFail : unjudged ? kSkipped : kPass;
}

}  // namespace

int cmd_grade(Context& ctx, const GradeArgs& a)
{
    if (!a.expect.empty() && !fs::is_regular_file(a.expect)) throw UsageError("--expect " + a.expect + ": no such file");
    if (std::error_code ec; fs::equivalent(a.out, a.submissions, ec))
        throw UsageError("--out " + for_terminal(a.out) + " is the submissions folder itself: its results would be "
                         "taken for students; grade into a folder outside it (one inside it is left out of the class)");
    ClassFolder cls;
    std::optional<FolderLock> lock;  // taken before anything is written into --out
    try {
        if (source_writes_output(a.submissions)) lock.emplace(fs::absolute(a.out));
        const ClassSource source = prepare_class_source(a.submissions, fs::absolute(a.out), ctx.catalog());
        fmt::print("{}", class_source_summary(source));
        cls = discover_class(source.class_root, ctx.catalog(), fs::absolute(a.out));
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
    print_found(cls);
    if (a.list_only) return kPass;
    GradingConfig config;
    if (const auto file = grading_config_file(a.config, ctx.catalog().root()); !file.empty()) try {
            config = read_grading_config(file, ctx.catalog());
        } catch (const std::runtime_error& e) {
            throw UsageError(e.what());
        }
    ctx.use_course_thresholds(config.thresholds, config.file);
    const GradeFolder out(fs::absolute(a.out));
    try {
        if (!lock) lock.emplace(out.root());
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
    GradingSettings settings = settings_for(out, a, cls, config);
    if (!config.lateness.students.empty()) try {  // and so is a students' lateness CSV
            read_student_deadlines(config.lateness.students);
        } catch (const std::runtime_error& e) {
            throw UsageError(e.what());
        }
    if (!settings.roster.empty()) try {  // a roster hpclab cannot use is refused before anything runs
            read_roster(settings.roster, settings.roster_keys.empty() ? config.roster_keys : settings.roster_keys);
        } catch (const std::runtime_error& e) {
            throw UsageError(e.what());
        }
    if (a.slurm) return write_slurm(ctx, out, a, settings);
    if (a.no_sandbox) disable_sandbox("--no-sandbox");
    if (const auto why = unmet_need(a.needs)) {
        fmt::print("Skipped: this grading {}.\n", *why);
        ctx.skip_because(*why);
        return kSkipped;
    }
    if (const auto why = sandbox_unavailable(); why && !a.no_sandbox)
        throw SetupError("grading runs every file in a sandbox, and none can be made here (" + *why +
                         "): install bubblewrap (./setup does), or grade with --no-sandbox on a machine that trusts "
                         "the files");
    if (!ctx.toolchain().available()) throw SetupError("cannot build: " + ctx.toolchain().unavailable);
    write_settings(out, settings);

    const PendingJobs pending = pending_jobs(out, selected_students(cls, a), settings.seed, a.again || !a.student.empty());
    const std::vector<GradeJob>& jobs = pending.to_check;
    const std::vector<GpuInfo> gpus = gpus_to_use(ctx, a.gpus);
    fmt::print("Course seed {}. {} files to grade on {}.\n", settings.seed, jobs.size(), gpus_text(gpus));
    if (!pending.uncovered.empty())
        fmt::print("{} results of an earlier run that ended before its GPU's health check: checked by one now.\n",
                   pending.uncovered.size());
    for (const GpuInfo& g : gpus)
        if (g.present)
            if (const auto why = out_of_service(out.root() / "gpus", g))
                fmt::print("GPU {} ({}) is out of service since an earlier run: {}It grades nothing until a person "
                           "deletes {}.\n",
                           g.index, g.name, *why, (out.root() / "gpus" / g.uuid).string());
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    ClassRunOptions ro {.compile_jobs = a.jobs > 0 ? a.jobs : static_cast<int>(cores), .checks_at_once = a.per_wave,
                        .sanitizer = !a.no_sanitizer, .timing = !a.no_timing,
                        .gpu_service_dir = out.root() / "gpus", .on_progress = progress_printer()};
    const ClassRunTotals t = grade_jobs(ctx.toolchain(), gpus, jobs, out, ro, pending.uncovered);
    if (t.covered_leftovers) fmt::print("{} results of the earlier run kept: the GPU is healthy.\n", t.covered_leftovers);
    if (t.redone_leftovers)
        fmt::print("{} results of the earlier run graded again: no healthy GPU could vouch for them.\n", t.redone_leftovers);
    for (const std::string& g : t.out_of_service) fmt::print("Out of service now: {}\n", g);
    if (t.moved) fmt::print("{} files of a voided wave were checked again on another GPU.\n", t.moved);
    if (!jobs.empty())
        fmt::print("Graded {} files: compile {} wall (the checks began with the first file compiled), checks {} wall "
                   "in {} waves, of which the GPU's health after each wave {:.0f} s (summed over checks: runs {:.0f} s, "
                   "sanitizer {:.0f} s, timing {:.0f} s).\n",
                   t.checked, duration(t.compile_wall_s), duration(t.check_wall_s), t.waves, t.health_wall_s, t.run_s,
                   t.sanitizer_s, t.timing_s);
    if (t.gpu.alone_turns > 0)
        fmt::print("The GPU{}'s time: {:.0f} s alone for {} timed phases, {:.0f} s shared by correctness and sanitizer "
                   "runs, {:.0f} s with no program's turn (builds, judging, programs starting).\n",
                   gpus.size() > 1 ? "s" : "", t.gpu.alone_s, t.gpu.alone_turns, t.gpu.shared_s, t.gpu.free_s);
    for (const GpuInfo& g : gpus)
        if (g.present && !jobs.empty())
            if (const auto usage = gpu_usage_now(g.uuid))
                fmt::print("GPU {} after the grading: {} process(es) of this grading left, {} other(s), {:.2f} GB in use.\n",
                           g.index, usage->own_pids.size(), usage->others, usage->used_bytes / 1e9);

    ClassOutputs o;
    std::vector<std::string> unreadable;
    std::vector<LabResult> results;  // outlives the book, which points into it (print_outputs, --expect)
    try {
        results = out.all_results(&unreadable);
        o = write_class_outputs(out, cls, results, ctx.catalog(), config, settings);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
    o.unreadable = unreadable;
    print_outputs(out, o);
    if (t.unsaved > 0) return kGraderError;
    return a.expect.empty() ? kPass : compare_expected(o.book, a.expect);
}

int cmd_merge(Context& ctx, const std::string& out_dir)
{
    const GradeFolder out(fs::absolute(out_dir));
    const auto settings = read_settings(out);
    if (!settings || settings->chunks < 1)
        throw UsageError(out_dir + ": not the folder of a Slurm grading (hpclab grade --slurm --out " + out_dir + ")");
    ClassFolder cls;
    GradingConfig config;
    try {
        cls = discover_class(settings->submissions, ctx.catalog(), out.root());
        if (!settings->config.empty()) config = read_grading_config(settings->config, ctx.catalog());
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
    ctx.use_course_thresholds(config.thresholds, config.file);  // the report's thresholds: the grading's
    const FolderLock lock(out.root());
    std::vector<std::string> unreadable;
    const std::vector<LabResult> results = results_of_chunks(out, settings->chunks, &unreadable);
    ClassOutputs o = write_class_outputs(out, cls, results, ctx.catalog(), config, *settings);
    o.unreadable = unreadable;
    fmt::print("Merged {} results of {} chunks.\n", results.size(), settings->chunks);
    print_outputs(out, o);
    const std::vector<int> missing = incomplete_chunks(cls, results, settings->chunks);
    if (missing.empty()) {
        fmt::print("Every chunk is complete.\n");
        return kPass;
    }
    fmt::print("\n{} of {} chunks are not complete (a file with no result, or a grader error). Submit them again:\n  {}\n"
               "then run hpclab merge {} again.\n",
               missing.size(), settings->chunks, resubmit_command(out.root(), missing), out_dir);
    return kFail;
}

}  // namespace hpclab::cli
