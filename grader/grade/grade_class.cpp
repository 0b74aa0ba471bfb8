#include "grade/grade_class.h"

#include "course/random.h"
#include "grade/lateness.h"
#include "run/gpu_health.h"
#include "gpu/gpu_turns.h"
#include "process/sandbox.h"
#include "run/task_runner.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/program_path.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void usage(const std::string& why) { throw GradeClassError(GradeClassError::Kind::usage, why); }
[[noreturn]] void setup(const std::string& why) { throw GradeClassError(GradeClassError::Kind::setup, why); }

// `step()`, its runtime_error (a folder, a file or a config hpclab cannot use) a usage error.
template <class Step> auto as_usage(Step step)
{
    try {
        return step();
    } catch (const GradeClassError&) {
        throw;
    } catch (const std::runtime_error& e) {
        usage(e.what());
    }
}

// The class as given (an LMS's download laid out first), the output folder
// locked before anything is written into it.
ClassFolder find_class(const GradeClassRequest& r, const GradeClassHost& host, std::optional<FolderLock>& lock)
{
    if (!r.expect.empty() && !fs::is_regular_file(r.expect)) usage("--expect " + r.expect + ": no such file");
    if (std::error_code ec; fs::equivalent(r.out, r.submissions, ec))
        usage("--out " + for_terminal(r.out) + " is the submissions folder itself: its results would be taken for "
              "students; grade into a folder outside it (one inside it is left out of the class)");
    return as_usage([&] {
        if (source_writes_output(r.submissions)) lock.emplace(fs::absolute(r.out));
        const ClassSource source = prepare_class_source(r.submissions, fs::absolute(r.out), host.catalog);
        ClassFolder cls = discover_class(source.class_root, host.catalog, fs::absolute(r.out));
        if (host.on_found) host.on_found(source, cls);
        return cls;
    });
}

// The settings of this grading: those the folder keeps, checked against
// what the request asks; or new ones.
GradingSettings settings_for(const GradeFolder& out, const GradeClassRequest& r, const ClassFolder& cls,
                             const GradingConfig& config)
{
    const auto kept = as_usage([&] { return read_settings(out); });
    std::optional<std::uint64_t> seed = r.seed ? r.seed : config.seed;
    if (kept) {
        if (kept->submissions != cls.root)
            usage(fmt::format("{} grades {}, not {}: grade this class into another folder", out.root().string(),
                              kept->submissions.string(), cls.root.string()));
        if (seed && *seed != kept->seed)
            usage(fmt::format("{} was graded with the course seed {}, not {}: the same seed gives the same verdicts; "
                              "grade into another folder for another seed",
                              out.root().string(), kept->seed, *seed));
    }
    GradingSettings s = kept.value_or(GradingSettings {.submissions = cls.root, .seed = seed ? *seed : fresh_seed() & ((1ull << 53) - 1)});
    if (!config.file.empty()) s.config = fs::absolute(config.file);
    if (!r.roster.empty()) s.roster = fs::absolute(r.roster);
    if (!r.roster_keys.empty()) s.roster_keys = r.roster_keys;
    return s;
}

// The course config, its thresholds in effect, and every file it names
// read once: a file hpclab cannot use is refused before anything runs.
GradingConfig read_config(const GradeClassRequest& r, const GradeClassHost& host)
{
    GradingConfig config;
    if (const auto file = grading_config_file(r.config, host.catalog.root()); !file.empty())
        config = as_usage([&] { return read_grading_config(file, host.catalog); });
    if (host.use_course_thresholds) host.use_course_thresholds(config.thresholds, config.file);
    return config;
}

void check_named_files(const GradingConfig& config, const GradingSettings& s)
{
    as_usage([&] {
        if (!config.lateness.students.empty()) read_student_deadlines(config.lateness.students);
        if (!s.roster.empty()) read_roster(s.roster, s.roster_keys.empty() ? config.roster_keys : s.roster_keys);
        return 0;
    });
}

// The flags every chunk of this grading is given, Slurm's or local.
std::vector<std::string> chunk_flags(const GradeClassRequest& r, const GradingSettings& s)
{
    std::vector<std::string> flags;
    if (!s.config.empty()) flags.insert(flags.end(), {"--config", s.config.string()});
    if (r.no_sanitizer) flags.push_back("--no-sanitizer");
    if (r.no_timing) flags.push_back("--no-timing");
    if (r.no_sandbox) flags.push_back("--no-sandbox");
    if (!r.big) flags.push_back("--no-big");
    return flags;
}

SlurmWritten write_slurm(const GradeClassRequest& r, const GradeFolder& out, GradingSettings settings, const Catalog& catalog)
{
    settings.chunks = r.chunks;
    write_settings(out, settings);
    SlurmJob job {.hpclab = fs::read_symlink("/proc/self/exe"), .course_root = catalog.root(),
                  .submissions = settings.submissions, .out = out.root(), .seed = settings.seed, .chunks = r.chunks,
                  .partition = r.partition, .time_limit = r.time_limit, .gres = r.gres, .cpus_per_task = r.cpus,
                  .grade_flags = chunk_flags(r, settings)};
    SlurmWritten written {.script = slurm_script_path(out.root()), .chunks = r.chunks, .seed = settings.seed};
    write_file_atomically(written.script, slurm_script(job));
    fs::permissions(written.script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    if (!r.submit) return written;
    const auto sbatch_exe = find_on_path("sbatch");
    if (!sbatch_exe) setup("--submit: no sbatch on the PATH (is this a Slurm cluster's login node?); the script is "
                           "written: submit it from where sbatch is");
    const ProcessResult p = run_process({.argv = {sbatch_exe->string(), "--parsable", written.script.string()}, .wall_limit_s = 60});
    if (!p.exited() || p.exit_code != 0) setup("sbatch did not take the job: " + (p.start_error.empty() ? p.err : p.start_error));
    written.job = p.out.substr(0, p.out.find('\n'));
    return written;
}

std::pair<int, int> parse_chunk(const std::string& text)
{
    int k = -1, n = 0;
    char slash = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &k, &slash, &n, &extra) != 3 || slash != '/' || n < 1 || k < 0 || k >= n)
        usage("--chunk '" + text + "': must be k/K with 0 <= k < K (what the Slurm script passes)");
    return {k, n};
}

std::vector<const Student*> selected_students(const ClassFolder& cls, const GradeClassRequest& r)
{
    std::vector<const Student*> out;
    if (!r.chunk.empty()) {
        const auto [k, n] = parse_chunk(r.chunk);
        out = students_of_chunk(cls, k, n);
    } else {
        for (const Student& s : cls.students) out.push_back(&s);
    }
    if (r.student.empty()) return out;
    for (const Student* s : out)
        if (s->id == r.student) return {s};
    usage("--student " + for_terminal(r.student) + ": no such student's folder in " + for_terminal(cls.root.string()));
}

// The GPUs to grade on: "" the first one hpclab sees (as hpclab check); a
// list of indices ("0,1") or "all": each run of a chunk sees its GPU alone.
std::vector<GpuInfo> gpus_to_use(const std::string& list, const GradeClassHost& host)
{
    if (list.empty() && !host.probe_gpus) return {probe_gpu()};
    std::vector<GpuInfo> all = host.probe_gpus ? host.probe_gpus() : probe_gpus();
    if (list.empty()) return {all.front()};
    if (!all.front().present) return {all.front()};
    std::vector<GpuInfo> chosen;
    if (list == "all") chosen = all;
    else
        for (const std::string& item : split(list, ',')) {
            char* end = nullptr;
            const long i = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || i < 0 || i >= static_cast<long>(all.size()))
                usage(fmt::format("--gpus {}: '{}' is not a GPU here (0..{}, or all)", list, item, all.size() - 1));
            for (const GpuInfo& g : chosen)
                if (g.index == i) usage(fmt::format("--gpus {}: GPU {} twice", list, i));
            chosen.push_back(all[static_cast<std::size_t>(i)]);
        }
    for (GpuInfo& g : chosen) g.pinned = true;
    return chosen;
}

// The machine can grade: a sandbox (unless refused), a compiler; or the
// request's needs are unmet (the grading is skipped: the why).
std::optional<std::string> refuse_or_skip(const GradeClassRequest& r, const GradeClassHost& host)
{
    if (r.no_sandbox) disable_sandbox("--no-sandbox");
    if (host.unmet_need)
        if (auto why = host.unmet_need(r.needs)) return why;
    if (const auto why = sandbox_unavailable(); why && !r.no_sandbox)
        setup("grading runs every file in a sandbox, and none can be made here (" + *why + "): install bubblewrap "
              "(./setup does), or grade with --no-sandbox on a machine that trusts the files");
    if (!host.toolchain.available()) setup("cannot build: " + host.toolchain.unavailable);
    return std::nullopt;
}

// Chunk k's folder keeps the marks of the GPUs it found broken (gpus/).
fs::path service_dir(const GradeFolder& out, std::size_t k, std::size_t chunks)
{
    return (chunks > 1 ? out.chunk_dir(static_cast<int>(k)) : out.root()) / "gpus";
}

GradingStart start_of(const GradeFolder& out, const GradingSettings& s, const PendingJobs& pending,
                      const std::vector<GpuInfo>& gpus)
{
    GradingStart start {.seed = s.seed, .files = pending.to_check.size(), .gpus = gpus, .uncovered = pending.uncovered.size()};
    for (std::size_t k = 0; k < gpus.size(); ++k)
        if (gpus[k].present)
            if (const auto why = out_of_service(service_dir(out, k, gpus.size()), gpus[k]))
                start.out_of_service.push_back(fmt::format("GPU {} ({}) is out of service since an earlier run: {}It "
                                                           "grades nothing until a person deletes {}.",
                                                           gpus[k].index, gpus[k].name, *why,
                                                           (service_dir(out, k, gpus.size()) / gpus[k].uuid).string()));
    start.turns_only_in_process = gpus.size() > 1 && !GpuTurns(gpus.front().uuid).across_processes();
    for (std::size_t k = 0; gpus.size() > 1 && k < gpus.size(); ++k) start.chunk_logs.push_back(chunk_log(out.root(), static_cast<int>(k)));
    return start;
}

ClassRunTotals grade_here(const GradeClassRequest& r, const GradeClassHost& host, const GradeFolder& out,
                          const PendingJobs& pending, const GpuInfo& gpu)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const ClassRunOptions o {.compile_jobs = r.jobs > 0 ? r.jobs : static_cast<int>(cores), .checks_at_once = r.checks_at_once,
                             .sanitizer = !r.no_sanitizer, .timing = !r.no_timing, .big = r.big,
                             .gpu_service_dir = out.root() / "gpus", .on_progress = host.on_progress};
    return grade_jobs(host.toolchain, gpu, pending.to_check, out, o, pending.uncovered);
}

// One local chunk per GPU, the CPU cores shared among their compiles.
std::vector<LocalChunkEnd> grade_in_chunks(const GradeClassRequest& r, const GradeClassHost& host, const GradeFolder& out,
                                           const GradingSettings& s, const std::vector<GpuInfo>& gpus)
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int jobs = r.jobs > 0 ? r.jobs : std::max(1, cores / static_cast<int>(gpus.size()));
    LocalChunks chunks {.hpclab = host.hpclab.empty() ? fs::read_symlink("/proc/self/exe") : host.hpclab,
                        .course_root = host.catalog.root(),
                        .submissions = s.submissions, .out = out.root(), .seed = s.seed, .gpus = gpus,
                        .grade_flags = chunk_flags(r, s)};
    chunks.grade_flags.insert(chunks.grade_flags.end(),
                              {"--jobs", std::to_string(jobs), "--checks-at-once", std::to_string(r.checks_at_once)});
    if (r.again) chunks.grade_flags.push_back("--again");
    std::vector<LocalChunkEnd> ends = run_local_chunks(chunks);
    // A chunk whose GPU is out of service now is graded on a healthy one by a person's command.
    const auto in_service = [&](std::size_t k) { return !out_of_service(service_dir(out, k, gpus.size()), gpus[k]); };
    for (std::size_t k = 0; k < ends.size(); ++k) {
        if (in_service(k)) continue;
        for (std::size_t j = 0; j < gpus.size(); ++j)
            if (j != k && in_service(j)) {
                ends[k].elsewhere = local_chunk_command(chunks, static_cast<int>(k), gpus[j]);
                break;
            }
    }
    return ends;
}

std::vector<std::string> gpus_after(const std::vector<GpuInfo>& gpus)
{
    std::vector<std::string> lines;
    for (const GpuInfo& g : gpus)
        if (g.present)
            if (const auto usage = gpu_usage_now(g.uuid))
                lines.push_back(fmt::format("GPU {} after the grading: {} process(es) of this grading left, {} other(s), "
                                            "{:.2f} GB in use.",
                                            g.index, usage->own_pids.size(), usage->others, usage->used_bytes / 1e9));
    return lines;
}

// The checks, here or in chunks, then the outputs from every result on disk.
void grade_and_write(const GradeClassRequest& r, const GradeClassHost& host, const ClassFolder& cls,
                     const GradingConfig& config, GradingSettings settings, GradeClassOutcome& o)
{
    const GradeFolder out(fs::absolute(r.out));
    const std::vector<GpuInfo> gpus = gpus_to_use(r.gpus, host);
    const int chunks = gpus.size() > 1 ? static_cast<int>(gpus.size()) : 0;
    if (chunks && (!r.student.empty() || !r.chunk.empty()))
        usage("--gpus with several GPUs grades the class in chunks, one per GPU: --student and --chunk take one GPU");
    if (chunks && settings.chunks && settings.chunks != chunks)
        usage(fmt::format("{} was graded in {} chunks: grade it on {} GPUs, merge it (hpclab merge), or grade into "
                          "another folder",
                          out.root().string(), settings.chunks, settings.chunks));
    if (chunks) settings.chunks = chunks;
    write_settings(out, settings);
    const PendingJobs pending = chunks ? PendingJobs {} : pending_jobs(out, selected_students(cls, r), settings.seed,
                                                                        r.again || !r.student.empty());
    o.start = start_of(out, settings, pending, gpus);
    if (host.on_start) host.on_start(o.start);
    if (chunks) o.chunk_ends = grade_in_chunks(r, host, out, settings, gpus);
    else o.totals = grade_here(r, host, out, pending, gpus.front());
    if (chunks || !pending.to_check.empty()) o.gpus_after = gpus_after(gpus);
    MergedChunks merged = as_usage([&] { return merge_chunks(out, cls, host.catalog, config, settings); });
    o.results = std::move(merged.results);  // the book's pointers move with the vector's buffer
    o.outputs = std::move(merged.outputs);
    if (chunks) o.incomplete_chunks = std::move(merged.incomplete);
    if (!r.expect.empty()) o.expected = compare_expected(o.outputs.book, r.expect);
}

}  // namespace

ExpectedVerdicts compare_expected(const Gradebook& book, const std::string& file)
{
    const auto text = read_text_file(file);
    if (!text) usage("--expect " + file + ": cannot be read");
    std::map<std::string, std::string> got;
    for (const BookRow& r : book.rows)
        for (std::size_t i = 0; i < book.columns.size(); ++i)
            got[r.student + " " + book.columns[i].name()] = cell_verdict(r.cells[i]);
    ExpectedVerdicts e;
    for (const CsvRow& row : parse_csv(*text)) {
        if (row.size() != 4 || row[0] == "student") continue;
        ++e.rows;
        const std::string key = row[0] + " " + row[1] + "." + row[2];
        const auto g = got.find(key);
        const std::string verdict = g == got.end() ? "(no such row)" : g->second;
        if (verdict == row[3]) continue;
        if (verdict == "not_run") ++e.unjudged;
        else e.wrong.push_back(fmt::format("expected {}: {}, got {}", key, row[3], verdict));
    }
    if (e.rows == 0) usage("--expect " + file + ": no rows of student,lab,task,verdict");
    return e;
}

bool GradeClassOutcome::failed_to_save() const
{
    return totals.unsaved > 0 ||
           std::any_of(chunk_ends.begin(), chunk_ends.end(), [](const LocalChunkEnd& c) { return c.exit_code != 0; });
}

GradeClassOutcome grade_class(const GradeClassRequest& r, const GradeClassHost& host)
{
    GradeClassOutcome o;
    std::optional<FolderLock> lock;  // taken before anything is written into --out
    const ClassFolder cls = find_class(r, host, lock);
    if (r.list_only) {
        o.kind = GradeClassOutcome::Kind::listed;
        return o;
    }
    const GradingConfig config = read_config(r, host);
    const GradeFolder out(fs::absolute(r.out));
    if (!lock) as_usage([&] { return &lock.emplace(out.root()); });
    const GradingSettings settings = settings_for(out, r, cls, config);
    check_named_files(config, settings);
    if (r.slurm) {
        o.kind = GradeClassOutcome::Kind::slurm_written;
        o.slurm = write_slurm(r, out, settings, host.catalog);
        return o;
    }
    if (const auto why = refuse_or_skip(r, host)) {
        o.kind = GradeClassOutcome::Kind::skipped;
        o.skipped_why = *why;
        return o;
    }
    if (!r.chunk.empty()) end_with_parent_grading();
    grade_and_write(r, host, cls, config, settings, o);
    return o;
}

MergedGrading merge_grading(const std::filesystem::path& out_dir, const GradeClassHost& host)
{
    const GradeFolder out(std::filesystem::absolute(out_dir));
    const auto settings = read_settings(out);
    if (!settings || settings->chunks < 1)
        throw GradeClassError(GradeClassError::Kind::usage,
                              fmt::format("{}: not the folder of a Slurm grading (hpclab grade --slurm --out {})",
                                          for_terminal(out_dir.string()), for_terminal(out_dir.string())));
    ClassFolder cls;
    GradingConfig config;
    try {
        cls = discover_class(settings->submissions, host.catalog, out.root());
        if (!settings->config.empty()) config = read_grading_config(settings->config, host.catalog);
    } catch (const std::runtime_error& e) {
        throw GradeClassError(GradeClassError::Kind::usage, e.what());
    }
    host.use_course_thresholds(config.thresholds, config.file);  // the report's thresholds: the grading's
    const FolderLock lock(out.root());
    MergedGrading m {merge_chunks(out, cls, host.catalog, config, *settings), settings->chunks, ""};
    if (!m.merged.incomplete.empty()) m.resubmit = resubmit_command(out.root(), m.merged.incomplete);
    return m;
}

}  // namespace hpclab
