#include "grade/class_run.h"

#include "check/check.h"
#include "check/grade_record.h"
#include "run/gpu_health.h"
#include "util/parallel.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <mutex>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Reports progress from many threads, one call at a time.
class Progress {
public:
    Progress(const ClassRunOptions& o, ClassProgress::Phase phase, int total)
        : on_(o.on_progress), state_ {.phase = phase, .total = total}
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
    std::mutex mutex_;
};

LabCheck check_one(const Toolchain& tc, const GpuInfo& gpu, const GradeJob& job, const ClassRunOptions& o,
                   GpuTurns* turns)
{
    CheckOptions c;
    c.source = job.submission->file;
    c.seed = job.seed;
    c.sanitizer = o.sanitizer;
    c.timing = o.timing;
    c.gpu_turns = turns;
    try {
        return check_lab(tc, gpu, *job.submission->lab, c);
    } catch (const std::exception& e) {
        // hpclab's own failure: a grader error, graded again on the next run.
        LabCheck out {.lab = job.submission->lab, .source = c.source, .gpu = gpu, .seed = job.seed};
        for (const TaskInfo& t : job.submission->lab->tasks) {
            TaskCheck tc_ {.task = &t};
            tc_.verdict = {t.id, Verdict::grader_error, {Verdict::grader_error, std::string("hpclab failed: ") + e.what(), "", ""}, {}};
            out.tasks.push_back(std::move(tc_));
        }
        out.overall = Verdict::grader_error;
        return out;
    }
}

// A broken GPU voids the wave that ran on it: every check in it becomes a
// grader error (never the students' fault), to be graded again elsewhere.
void void_wave(std::vector<LabCheck>& wave, const std::string& why)
{
    for (LabCheck& c : wave) {
        for (TaskCheck& t : c.tasks)
            t.verdict = {t.task->id, Verdict::grader_error,
                         {Verdict::grader_error,
                          "the GPU was not healthy after this check's wave (" + why +
                              "): it is out of service now, and this file is graded again on the next run",
                          "", ""},
                         {}};
        c.overall = Verdict::grader_error;
    }
}

}  // namespace

ClassRunTotals grade_jobs(const Toolchain& tc, const GpuInfo& gpu, const std::vector<GradeJob>& jobs,
                          const GradeFolder& folder, const ClassRunOptions& o)
{
    ClassRunTotals totals;
    // 1. Every file compiled, side by side on the CPU.
    auto t0 = Clock::now();
    {
        Progress progress(o, ClassProgress::Phase::compiling, static_cast<int>(jobs.size()));
        std::vector<std::function<int()>> builds;
        for (const GradeJob& job : jobs)
            builds.push_back([&] {
                const LabInfo& lab = *job.submission->lab;
                const BuildResult b = build_lab_program(tc, lab, job.submission->file, build_name(lab, job.submission->file));
                progress.step(fmt::format("{} {}: {}", job.student, lab.id, b.ok ? "compiled" : "does not compile"));
                return 0;
            });
        run_bounded(std::move(builds), o.compile_jobs);
    }
    totals.compile_wall_s = seconds_since(t0);

    // 2. The checks, a wave at a time, each result kept as it ends.
    t0 = Clock::now();
    Progress progress(o, ClassProgress::Phase::checking, static_cast<int>(jobs.size()));
    GpuTurns turns;
    std::mutex save_mutex;
    const int wave_size = std::max(1, o.checks_per_wave);
    for (std::size_t first = 0; first < jobs.size(); first += wave_size) {
        const std::size_t last = std::min(jobs.size(), first + wave_size);
        const bool watch = gpu.present && !o.gpu_service_dir.empty();
        if (watch)
            if (const auto why = out_of_service(o.gpu_service_dir, gpu)) {
                std::fprintf(stderr, "hpclab grade: the GPU %s is out of service: %s; the files left are graded on "
                             "the next run\n", gpu.name.c_str(), why->c_str());
                break;
            }
        const GpuBaseline before = watch ? gpu_baseline(gpu) : GpuBaseline {};
        std::vector<std::function<LabCheck()>> checks;
        for (std::size_t j = first; j < last; ++j)
            checks.push_back([&, j] { return check_one(tc, gpu, jobs[j], o, &turns); });
        std::vector<LabCheck> wave = run_bounded(std::move(checks), wave_size);
        if (watch) {
            const GpuHealth health = gpu_health_after(tc, gpu, before);
            if (!health.healthy) {
                take_out_of_service(o.gpu_service_dir, gpu, health.why);
                void_wave(wave, health.why);
            }
        }
        for (std::size_t k = 0; k < wave.size(); ++k) {
            const GradeJob& job = jobs[first + k];
            const LabCheck& c = wave[k];
            totals.compile_s += c.compile_s;
            totals.run_s += c.run_s;
            totals.sanitizer_s += c.sanitizer_s;
            totals.timing_s += c.timing_s;
            ++totals.checked;
            try {
                std::lock_guard lock(save_mutex);
                folder.save(lab_result_of(c, job.student, job.folder, job.submission->content_hash, grade_record(c, tc)));
            } catch (const std::exception& e) {
                ++totals.unsaved;
                std::fprintf(stderr, "hpclab grade: %s\n", e.what());
            }
            progress.step(fmt::format("{} {}: {}", job.student, c.lab->id, verdict_name(c.overall)));
        }
    }
    totals.check_wall_s = seconds_since(t0);
    return totals;
}

}  // namespace hpclab
