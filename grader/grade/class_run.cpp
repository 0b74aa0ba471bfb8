#include "grade/class_run.h"

#include "check/grade_record.h"
#include "check/plan.h"
#include "util/parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <mutex>
#include <numeric>
#include <thread>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Reports progress from many threads, one call at a time.
class Progress {
public:
    // `mutex`: one for every Progress of a grading (its phases overlap).
    Progress(const ClassRunOptions& o, ClassProgress::Phase phase, int total, std::mutex& mutex)
        : on_(o.on_progress), state_ {.phase = phase, .total = total}, mutex_(mutex)
    {
    }
    void step(const std::string& what)
    {
        std::lock_guard lock(mutex_);
        ++state_.done;
        state_.elapsed_s = seconds_since(t0_);
        state_.last = what;
        if (on_) on_(state_);
    }
private:
    std::function<void(const ClassProgress&)> on_;
    ClassProgress state_;
    Clock::time_point t0_ = Clock::now();
    std::mutex& mutex_;
};

// Every check's verdict replaced by a grader error (never the student's fault).
LabCheck grader_error(LabCheck c, const LabInfo& lab, const std::string& why)
{
    if (c.tasks.empty())
        for (const TaskInfo& t : lab.tasks) c.tasks.push_back(TaskCheck {.task = &t});
    for (TaskCheck& t : c.tasks) t.verdict = {t.task->id, Verdict::grader_error, {Verdict::grader_error, why, "", ""}, {}};
    c.lab = &lab;
    c.overall = Verdict::grader_error;
    return c;
}

// The real steps, where the options give none.
ClassSteps real_steps(const Toolchain& tc, const ClassRunOptions& o)
{
    ClassSteps s = o.steps;
    if (!s.build)
        s.build = [&tc](const GradeJob& job) {
            const LabInfo& lab = *job.submission->lab;
            return build_lab_program(tc, lab, job.submission->file, build_name(lab, job.submission->file)).ok;
        };
    // One run of the speed baseline per lab and GPU for the whole class.
    auto baselines = std::make_shared<BaselineTimes>();
    if (!s.check)
        s.check = [&tc, o, baselines](const GradeJob& job, const GpuInfo& gpu, GpuTurns* turns) {
            CheckOptions c;
            c.source = job.submission->file;
            c.seed = job.seed;
            c.sanitizer = o.sanitizer;
            c.timing = o.timing;
            c.big = o.big;
            c.gpu_turns = turns;
            c.baseline_times = baselines.get();
            c.hang_after_s = 0;  // the lab's limit: see CheckOptions
            try {
                return check_lab(tc, gpu, *job.submission->lab, c);
            } catch (const std::exception& e) {  // hpclab's own failure: graded again on the next run
                return grader_error(LabCheck {.source = c.source, .gpu = gpu, .seed = job.seed}, *job.submission->lab,
                                    std::string("hpclab failed: ") + e.what());
            }
        };
    if (!s.baseline) s.baseline = [](const GpuInfo& gpu) { return gpu_baseline(gpu); };
    if (!s.health) s.health = [&tc](const GpuInfo& gpu, const GpuBaseline& b) { return gpu_health_after(tc, gpu, b); };
    if (!s.record) s.record = [&tc](const LabCheck& c) { return grade_record(c, tc); };
    return s;
}

// A timed task's weight in runs: its timing takes the GPU alone
// (gpu/gpu_turns.h) while the other checks of the wave wait for it. On
// the H100 (8 at once) a timed task added about 5 s to a check (vecadd1
// 10.7 s against hello 5.6 s: one task of five sizes each, vecadd1 timed),
// a run about 0.15 s (vecadd2's five more runs than hello: 0.8 s).
constexpr int kTimedTaskRuns = 30;

// What a file's check is expected to cost, in runs, from its lab's
// metadata alone: the runs it plans (check/plan.h: every task at every size
// but the big ones, which a grading leaves out, and the sanitizer's), and
// its timed tasks (those with a threshold). Only the order it gives the
// labs counts: labs with more timed tasks first, then those with more runs.
int expected_cost(const LabInfo& lab, const ClassRunOptions& o)
{
    // A program lab has no task specs to plan: its check is one run of the
    // student's program and one of hpclab's own timing program.
    if (!lab.kind_traits().tasks_at_sizes) return 2;
    std::vector<const TaskInfo*> tasks;
    int timed = 0;
    for (const TaskInfo& t : lab.tasks) {
        tasks.push_back(&t);
        if (t.threshold) ++timed;
    }
    return static_cast<int>(plan_runs(lab, tasks, o.big, o.sanitizer).size()) + (o.timing ? kTimedTaskRuns * timed : 0);
}

// The order the checks start in (indices into `jobs`): waves of
// `wave_size` in the jobs' order, and inside each the longest expected
// first (ties in the jobs' order), so that a wave's tail, during which the
// slots of the checks already done stay idle until its health check, is
// short checks. The order decides nothing but when a file is checked.
// `cost`: each job's expected_cost.
std::vector<std::size_t> start_order(const std::vector<int>& cost, std::size_t wave_size)
{
    std::vector<std::size_t> order(cost.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    for (std::size_t begin = 0; begin < order.size(); begin += wave_size)
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(begin),
                         order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), begin + wave_size)),
                         [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
    return order;
}

// Whether the GPU's health is checked (and its results wait to be covered).
bool watched(const GpuInfo& gpu, const ClassRunOptions& o) { return gpu.present && !o.gpu_service_dir.empty(); }

// Every file compiled, side by side on the CPU cores, in a thread of its
// own, in the order the checks take them: a check waits for its own file
// only, so the GPU is busy from the first compiled file on, not after the last.
class CompilePool {
public:
    CompilePool(const ClassSteps& steps, const std::vector<GradeJob>& jobs, const std::vector<std::size_t>& order,
                const ClassRunOptions& o, std::mutex& progress_mutex)
        : compiled_(jobs.size())
    {
        for (auto& p : compiled_) built_.push_back(p.get_future().share());
        thread_ = std::thread([&, order] {
            const auto t0 = Clock::now();
            Progress progress(o, ClassProgress::Phase::compiling, static_cast<int>(jobs.size()), progress_mutex);
            std::vector<std::function<int()>> builds;
            for (std::size_t j : order)
                builds.push_back([&, j] {
                    bool ok = false;
                    try {
                        ok = steps.build(jobs[j]);
                    } catch (...) {  // the check builds it again and says why; its wait must end either way
                    }
                    compiled_[j].set_value();
                    progress.step(fmt::format("{} {}: {}", jobs[j].student, jobs[j].submission->lab->id,
                                              ok ? "compiled" : "does not compile"));
                    return 0;
                });
            run_bounded(std::move(builds), o.compile_jobs);
            wall_s_ = seconds_since(t0);
        });
    }
    ~CompilePool()
    {
        if (thread_.joinable()) thread_.join();  // a check threw: the compiles still end first
    }
    void wait_for(std::size_t job) const { built_[job].wait(); }
    double join()  // the compiles' wall time
    {
        thread_.join();
        return wall_s_;
    }

private:
    std::vector<std::promise<void>> compiled_;
    std::vector<std::shared_future<void>> built_;
    double wall_s_ = 0;
    std::thread thread_;
};

// A grading's checks on its GPU, a wave at a time: each result written as
// its check ends, and covered as its wave's GPU is found clean.
class WaveRun {
public:
    WaveRun(const ClassSteps& steps, const GpuInfo& gpu, const std::vector<GradeJob>& jobs, const GradeFolder& folder,
            const ClassRunOptions& o, ClassRunTotals& totals, std::mutex& progress_mutex)
        : steps_(steps), gpu_(gpu), jobs_(jobs), folder_(folder), o_(o), totals_(totals), turns_(gpu.uuid),
          watch_(watched(gpu, o)), progress_(o, ClassProgress::Phase::checking, static_cast<int>(jobs.size()), progress_mutex)
    {
    }
    // The wave's checks, at most `at_once` together, then the GPU's health:
    // false when it failed (the wave's results are void, the GPU out of service).
    bool check_wave(const std::vector<std::size_t>& wave, const CompilePool& compiles, int at_once)
    {
        const GpuBaseline before = watch_ ? steps_.baseline(gpu_) : GpuBaseline {};
        std::vector<std::function<std::pair<LabCheck, LabResult>()>> checks;
        for (std::size_t j : wave)
            checks.push_back([&, j] {
                compiles.wait_for(j);
                LabCheck c = steps_.check(jobs_[j], gpu_, &turns_);
                LabResult r = judged(jobs_[j], c, !watch_);
                return std::pair {std::move(c), std::move(r)};
            });
        auto results = run_bounded(std::move(checks), at_once);
        const GpuHealth health = health_after(before);
        if (!health.healthy) {
            void_wave(wave, results, health.why);
            return false;
        }
        if (watch_)
            for (auto& [c, r] : results) {
                r.covered = true;
                write(r);
            }
        return true;
    }
    GpuTurns::Split gpu_split() { return turns_.split(); }

private:
    // A check just ended: its result written at once (covered when `covered`).
    LabResult judged(const GradeJob& job, const LabCheck& c, bool covered)
    {
        LabResult r = lab_result_of(c, job.student, job.folder, job.submission->content_hash, steps_.record(c));
        r.covered = covered;
        write(r);
        {
            std::lock_guard lock(mutex_);
            totals_.compile_s += c.compile_s, totals_.run_s += c.run_s, totals_.sanitizer_s += c.sanitizer_s,
                totals_.timing_s += c.timing_s;
            ++totals_.checked;
        }
        progress_.step(fmt::format("{} {}: {}", job.student, c.lab->id, verdict_name(c.overall)));
        return r;
    }
    void write(const LabResult& r)
    {
        try {
            folder_.save(r);
        } catch (const std::exception& e) {
            std::lock_guard lock(mutex_);
            ++totals_.unsaved;
            std::fprintf(stderr, "hpclab grade: %s\n", e.what());
        }
    }
    GpuHealth health_after(const GpuBaseline& before)
    {
        const auto t0 = Clock::now();
        GpuHealth health;
        if (watch_) {  // its canary is a program on the GPU: in a shared turn, as any other
            const auto turn = GpuTurns::shared(&turns_);
            health = steps_.health(gpu_, before);
        }
        totals_.health_wall_s += seconds_since(t0);
        ++totals_.waves;
        return health;
    }
    // The GPU out of service, and the wave's results void at once (a kill now
    // must not leave them to be covered): grader errors, graded on the next run.
    void void_wave(const std::vector<std::size_t>& wave, std::vector<std::pair<LabCheck, LabResult>>& results,
                   const std::string& why)
    {
        take_out_of_service(o_.gpu_service_dir, gpu_, why);
        totals_.out_of_service = fmt::format("GPU {} ({}): {}", gpu_.index, gpu_.name, why);
        for (std::size_t k = 0; k < wave.size(); ++k) {
            const GradeJob& job = jobs_[wave[k]];
            const LabCheck c = grader_error(std::move(results[k].first), *job.submission->lab,
                                            "the GPU was not healthy after this check's wave (" + why +
                                                "): it is out of service now, and this file is graded again on the next run");
            write(lab_result_of(c, job.student, job.folder, job.submission->content_hash, steps_.record(c)));
        }
    }

    const ClassSteps& steps_;
    const GpuInfo& gpu_;
    const std::vector<GradeJob>& jobs_;
    const GradeFolder& folder_;
    const ClassRunOptions& o_;
    ClassRunTotals& totals_;
    std::mutex mutex_;  // totals_ and the results' files, written from the checks' threads
    // With every other hpclab on this machine too (a student's check, the
    // other GPUs' chunks): through the machine's lock files.
    GpuTurns turns_;
    bool watch_;
    Progress progress_;
};

// The results an earlier run wrote and no health check covered (it was
// killed first): covered now if the GPU is found clean before anything else
// runs on it; else false, and they are graded again. A GPU found broken is
// taken out of service, as after a wave.
bool cover_leftovers(const ClassSteps& steps, const GpuInfo& gpu, const ClassRunOptions& o, const GradeFolder& folder,
                     const std::vector<GradeJob>& uncovered, ClassRunTotals& totals)
{
    if (!watched(gpu, o) || out_of_service(o.gpu_service_dir, gpu)) return false;
    {
        GpuTurns turns(gpu.uuid);
        const auto turn = GpuTurns::shared(&turns);
        // The programs to vouch for ran before any watch of this run: no
        // driver's report can clear them, the canary decides.
        GpuBaseline now = steps.baseline(gpu);
        now.errors.reset();
        const GpuHealth health = steps.health(gpu, now);
        ++totals.waves;
        if (!health.healthy) {
            take_out_of_service(o.gpu_service_dir, gpu, health.why);
            totals.out_of_service = fmt::format("GPU {} ({}): {}", gpu.index, gpu.name, health.why);
            return false;
        }
    }
    try {
        for (const GradeJob& job : uncovered) {
            auto r = folder.load(job.student, job.submission->lab->id);
            if (!r) return false;  // gone meanwhile: graded again, all of them (a rare case: one rule)
            r->covered = true;
            folder.save(*r);
        }
    } catch (const std::exception& e) {  // cannot be written: checked again, and written then or said
        std::fprintf(stderr, "hpclab grade: %s\n", e.what());
        return false;
    }
    return true;
}

// The files to check: `to_check`, and the uncovered ones unless a health check covers them now.
std::vector<GradeJob> jobs_to_check(const ClassSteps& steps, const GpuInfo& gpu, const ClassRunOptions& o,
                                    const GradeFolder& folder, const std::vector<GradeJob>& to_check,
                                    const std::vector<GradeJob>& uncovered, ClassRunTotals& totals)
{
    std::vector<GradeJob> jobs = to_check;
    if (uncovered.empty()) return jobs;
    if (cover_leftovers(steps, gpu, o, folder, uncovered, totals)) totals.covered_leftovers = static_cast<int>(uncovered.size());
    else {
        totals.redone_leftovers = static_cast<int>(uncovered.size());
        jobs.insert(jobs.end(), uncovered.begin(), uncovered.end());
    }
    return jobs;
}

}  // namespace

// The grading loop: the compile pool, then the checks a wave at a time
// (a bounded set at once), each wave followed by the GPU's health check.
ClassRunTotals grade_jobs(const Toolchain& tc, const GpuInfo& gpu, const std::vector<GradeJob>& to_check,
                          const GradeFolder& folder, const ClassRunOptions& o, const std::vector<GradeJob>& uncovered)
{
    const ClassSteps steps = real_steps(tc, o);
    ClassRunTotals totals;
    const std::vector<GradeJob> jobs = jobs_to_check(steps, gpu, o, folder, to_check, uncovered, totals);
    const int at_once = std::max(1, o.checks_at_once);
    const std::size_t wave_size = static_cast<std::size_t>(o.checks_per_wave > 0 ? o.checks_per_wave : 16 * at_once);
    std::vector<int> cost;
    for (const GradeJob& job : jobs) cost.push_back(expected_cost(*job.submission->lab, o));
    const std::vector<std::size_t> order = start_order(cost, wave_size);

    const auto t0 = Clock::now();
    std::mutex progress_mutex;  // the compiles' and the checks' progress: one line at a time
    CompilePool compiles(steps, jobs, order, o, progress_mutex);
    WaveRun run(steps, gpu, jobs, folder, o, totals, progress_mutex);
    std::size_t begun = 0;  // the files of `order` whose wave began
    if (!(watched(gpu, o) && out_of_service(o.gpu_service_dir, gpu)))
        while (begun < order.size()) {
            const std::size_t end = std::min(order.size(), begun + wave_size);
            const std::vector<std::size_t> wave(order.begin() + static_cast<std::ptrdiff_t>(begun),
                                                order.begin() + static_cast<std::ptrdiff_t>(end));
            begun = end;
            if (!run.check_wave(wave, compiles, static_cast<int>(std::min<std::size_t>(at_once, wave_size)))) break;
        }
    totals.compile_wall_s = compiles.join();
    totals.gpu = run.gpu_split();
    // Files the GPU could not take (out of service): said, and graded on a later run.
    for (std::size_t k = begun; k < order.size(); ++k)
        std::fprintf(stderr, "hpclab grade: %s %s: not graded, the GPU is out of service\n", jobs[order[k]].student.c_str(),
                     jobs[order[k]].submission->lab->id.c_str());
    totals.check_wall_s = seconds_since(t0);
    return totals;
}

}  // namespace hpclab
