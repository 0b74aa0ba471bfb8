#include "grade/class_run.h"

#include "check/grade_record.h"
#include "check/plan.h"
#include "util/parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
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
    // Files to be checked again (their wave voided): `n` more steps to come.
    void more(int n)
    {
        std::lock_guard lock(mutex_);
        state_.total += n;
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
// (check/gpu_turns.h) while the other checks of the wave wait for it. On
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
    std::vector<const TaskInfo*> tasks;
    int timed = 0;
    for (const TaskInfo& t : lab.tasks) {
        tasks.push_back(&t);
        if (t.threshold) ++timed;
    }
    return static_cast<int>(plan_runs(lab, tasks, false, o.sanitizer).size()) + (o.timing ? kTimedTaskRuns * timed : 0);
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

// The queue of files to check, shared by the GPUs' workers, in the order
// they start (start_order). A worker takes a wave at a time: at most a
// whole wave, but no more than its share of what is left, by expected cost
// (the cost left over the workers still working; a quarter wave at least),
// so that the GPUs end together: with the costliest files first, a share
// by count gave one GPU the first half of a class of ten students (its
// reductions and matmuls: 82 s on two H100s) and the other the cheap half
// (50 s). A worker that finds the queue empty waits while another still
// checks a wave: that wave comes back to the queue's front, as it was, if
// its GPU fails, and is checked again by a worker still working.
class JobQueue {
public:
    // `cost`: each job's expected cost (expected_cost), by job index.
    JobQueue(const std::vector<std::size_t>& order, std::vector<int> cost, int workers)
        : queue_(order.begin(), order.end()), cost_(std::move(cost)), working_(workers)
    {
    }
    // The next wave; empty once nothing is left to take (the worker ends).
    std::vector<std::size_t> take(std::size_t wave_size)
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !queue_.empty() || in_flight_ == 0; });
        long long left = 0;
        for (std::size_t j : queue_) left += std::max(1, cost_[j]);
        const long long share = (left + working_ - 1) / working_;
        const std::size_t at_least = std::max<std::size_t>(1, wave_size / 4);
        std::vector<std::size_t> wave;
        for (long long taken = 0; wave.size() < wave_size && !queue_.empty() && (wave.size() < at_least || taken < share);) {
            taken += std::max(1, cost_[queue_.front()]);
            wave.push_back(queue_.front());
            queue_.pop_front();
        }
        if (wave.empty())
            --working_;  // this worker ends (under the lock: see give_back)
        else
            ++in_flight_;
        return wave;
    }
    // A wave checked and saved.
    void done()
    {
        std::lock_guard lock(mutex_);
        --in_flight_;
        changed_.notify_all();
    }
    // A worker whose GPU failed: its wave back to the others, if any is still
    // working (true); else the wave stays with it (false). It ends either way.
    bool give_back(const std::vector<std::size_t>& wave)
    {
        std::lock_guard lock(mutex_);
        --in_flight_;
        --working_;
        if (working_ == 0) return false;
        queue_.insert(queue_.begin(), wave.begin(), wave.end());
        changed_.notify_all();
        return true;
    }
    void leave()  // a worker that ends with the queue not empty (its GPU out of service before it began)
    {
        std::lock_guard lock(mutex_);
        --working_;
        changed_.notify_all();
    }
    std::vector<std::size_t> left()
    {
        std::lock_guard lock(mutex_);
        return {queue_.begin(), queue_.end()};
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::size_t> queue_;
    std::vector<int> cost_;
    int working_;        // workers not ended
    int in_flight_ = 0;  // waves taken, not yet done or given back
};

bool watched(const GpuInfo& gpu, const ClassRunOptions& o) { return gpu.present && !o.gpu_service_dir.empty(); }

// The results an earlier run wrote and no health check covered (it was
// killed first): covered now if every GPU in service is found clean before
// anything else runs on it; else false, and they are graded again. A GPU
// found broken is taken out of service, as after a wave.
bool cover_leftovers(const ClassSteps& steps, const std::vector<GpuInfo>& gpus, const ClassRunOptions& o,
                     const GradeFolder& folder, const std::vector<GradeJob>& uncovered, ClassRunTotals& totals)
{
    bool clean = false;
    for (const GpuInfo& gpu : gpus) {
        if (!watched(gpu, o) || out_of_service(o.gpu_service_dir, gpu)) continue;
        GpuTurns turns(gpu.uuid);
        const auto turn = GpuTurns::shared(&turns);
        const GpuHealth health = steps.health(gpu, steps.baseline(gpu));
        ++totals.waves;
        if (!health.healthy) {
            take_out_of_service(o.gpu_service_dir, gpu, health.why);
            totals.out_of_service.push_back(fmt::format("GPU {} ({}): {}", gpu.index, gpu.name, health.why));
            return false;
        }
        clean = true;
    }
    if (!clean) return false;
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

}  // namespace

ClassRunTotals grade_jobs(const Toolchain& tc, const std::vector<GpuInfo>& gpus, const std::vector<GradeJob>& to_check,
                          const GradeFolder& folder, const ClassRunOptions& o, const std::vector<GradeJob>& uncovered)
{
    const ClassSteps steps = real_steps(tc, o);
    ClassRunTotals totals;
    std::mutex totals_mutex;
    std::vector<GradeJob> jobs = to_check;
    if (!uncovered.empty()) {
        if (cover_leftovers(steps, gpus, o, folder, uncovered, totals)) totals.covered_leftovers = static_cast<int>(uncovered.size());
        else {
            totals.redone_leftovers = static_cast<int>(uncovered.size());
            jobs.insert(jobs.end(), uncovered.begin(), uncovered.end());
        }
    }

    const int at_once = std::max(1, o.checks_at_once);
    const std::size_t wave_size = static_cast<std::size_t>(o.checks_per_wave > 0 ? o.checks_per_wave : 16 * at_once);
    std::vector<int> cost;
    for (const GradeJob& job : jobs) cost.push_back(expected_cost(*job.submission->lab, o));
    const std::vector<std::size_t> order = start_order(cost, wave_size);

    // 1. Every file compiled, side by side on the CPU, in the order the
    // checks take them (`order`): a check waits for its own file only, so
    // the GPU is busy from the first compiled file on, not after the last.
    auto t0 = Clock::now();
    std::mutex progress_mutex;
    std::vector<std::promise<void>> compiled(jobs.size());
    std::vector<std::shared_future<void>> built;
    for (auto& p : compiled) built.push_back(p.get_future().share());
    std::thread compiler([&] {
        Progress progress(o, ClassProgress::Phase::compiling, static_cast<int>(jobs.size()), progress_mutex);
        std::vector<std::function<int()>> builds;
        for (std::size_t j : order)
            builds.push_back([&, j] {
                const GradeJob& job = jobs[j];
                bool ok = false;
                try {
                    ok = steps.build(job);
                } catch (...) {  // the check builds it again and says why; its wait must end either way
                }
                compiled[j].set_value();
                progress.step(fmt::format("{} {}: {}", job.student, job.submission->lab->id, ok ? "compiled" : "does not compile"));
                return 0;
            });
        run_bounded(std::move(builds), o.compile_jobs);
        totals.compile_wall_s = seconds_since(t0);
    });

    // 2. The checks: a worker per GPU, a wave at a time, each result written
    // as its check ends and covered as its wave's GPU is found clean.
    Progress progress(o, ClassProgress::Phase::checking, static_cast<int>(jobs.size()), progress_mutex);
    JobQueue queue(order, std::move(cost), static_cast<int>(gpus.size()));
    const auto write = [&](const LabResult& r) {
        try {
            folder.save(r);
        } catch (const std::exception& e) {
            std::lock_guard lock(totals_mutex);
            ++totals.unsaved;
            std::fprintf(stderr, "hpclab grade: %s\n", e.what());
        }
    };
    // A check just ended: its result written at once (covered when `covered`).
    const auto judged = [&](const GradeJob& job, const LabCheck& c, bool covered) {
        LabResult r = lab_result_of(c, job.student, job.folder, job.submission->content_hash, steps.record(c));
        r.covered = covered;
        write(r);
        {
            std::lock_guard lock(totals_mutex);
            totals.compile_s += c.compile_s, totals.run_s += c.run_s, totals.sanitizer_s += c.sanitizer_s,
                totals.timing_s += c.timing_s;
            ++totals.checked;
        }
        progress.step(fmt::format("{} {}: {}{}", job.student, c.lab->id, verdict_name(c.overall),
                                  gpus.size() > 1 ? fmt::format(" (GPU {})", c.gpu.index) : ""));
        return r;
    };
    // One GPU's waves, until the queue is empty or the GPU is out of service.
    const auto check_waves = [&](const GpuInfo& gpu, GpuTurns& turns) {
        const bool watch = watched(gpu, o);
        if (watch && out_of_service(o.gpu_service_dir, gpu)) {
            queue.leave();
            return;
        }
        for (std::vector<std::size_t> wave; !(wave = queue.take(wave_size)).empty();) {
            const GpuBaseline before = watch ? steps.baseline(gpu) : GpuBaseline {};
            std::vector<std::function<std::pair<LabCheck, LabResult>()>> checks;
            for (std::size_t j : wave)
                checks.push_back([&, j] {
                    built[j].wait();
                    LabCheck c = steps.check(jobs[j], gpu, &turns);
                    LabResult r = judged(jobs[j], c, !watch);
                    return std::pair {std::move(c), std::move(r)};
                });
            std::vector<std::pair<LabCheck, LabResult>> results =
                run_bounded(std::move(checks), std::min(at_once, static_cast<int>(wave_size)));
            const auto t_health = Clock::now();
            GpuHealth health;
            if (watch) {  // its canary is a program on the GPU: in a shared turn, as any other
                const auto turn = GpuTurns::shared(&turns);
                health = steps.health(gpu, before);
            }
            {
                std::lock_guard lock(totals_mutex);
                totals.health_wall_s += seconds_since(t_health);
                ++totals.waves;
            }
            if (!health.healthy) {
                take_out_of_service(o.gpu_service_dir, gpu, health.why);
                {
                    std::lock_guard lock(totals_mutex);
                    totals.out_of_service.push_back(fmt::format("GPU {} ({}): {}", gpu.index, gpu.name, health.why));
                }
                // Its results void at once (a kill now must not leave them to be covered), then
                // checked again: on another GPU still working, else on the next run.
                for (std::size_t k = 0; k < wave.size(); ++k) {
                    const GradeJob& job = jobs[wave[k]];
                    const LabCheck c = grader_error(std::move(results[k].first), *job.submission->lab,
                                                    "the GPU was not healthy after this check's wave (" + health.why +
                                                        "): it is out of service now, and this file is graded "
                                                        "again on the next run");
                    write(lab_result_of(c, job.student, job.folder, job.submission->content_hash, steps.record(c)));
                }
                if (queue.give_back(wave)) {
                    progress.more(static_cast<int>(wave.size()));
                    std::lock_guard lock(totals_mutex);
                    totals.moved += static_cast<int>(wave.size());
                }
                return;
            }
            if (watch)
                for (auto& [c, r] : results) {
                    r.covered = true;
                    write(r);
                }
            queue.done();
        }
    };
    std::once_flag said_turns_apart;
    const auto worker = [&](const GpuInfo& gpu) {
        // With every other hpclab on this machine too (a student's check),
        // and with the other GPUs' workers: through the machine's lock files.
        GpuTurns turns(gpu.uuid);
        if (gpus.size() > 1 && gpu.present && !turns.across_processes())
            std::call_once(said_turns_apart, [] {
                std::fprintf(stderr, "hpclab grade: the GPU turns' lock files in %s cannot be used: a timed phase "
                             "on one GPU may meet another GPU's programs, which slow it\n",
                             GpuTurns::lock_folder().c_str());
            });
        check_waves(gpu, turns);
        const GpuTurns::Split split = turns.split();  // where this GPU's time went
        std::lock_guard lock(totals_mutex);
        totals.gpu.alone_s += split.alone_s, totals.gpu.shared_s += split.shared_s, totals.gpu.free_s += split.free_s,
            totals.gpu.alone_turns += split.alone_turns;
    };
    std::vector<std::thread> workers;
    for (const GpuInfo& gpu : gpus) workers.emplace_back(worker, std::cref(gpu));
    for (std::thread& w : workers) w.join();
    compiler.join();
    // Files no GPU could take (every one out of service): said, and graded on a later run.
    for (std::size_t j : queue.left())
        std::fprintf(stderr, "hpclab grade: %s %s: not graded, no GPU in service is left\n", jobs[j].student.c_str(),
                     jobs[j].submission->lab->id.c_str());
    totals.check_wall_s = seconds_since(t0);
    return totals;
}

}  // namespace hpclab
