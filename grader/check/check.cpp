#include "check/check.h"
#include "check/program_check.h"
#include "check/code_evidence.h"
#include "check/grid_evidence.h"

#include "course/random.h"
#include "check/correctness.h"
#include "check/decide.h"
#include "check/evidence.h"
#include "check/feedback.h"
#include "check/profile.h"
#include "run/profiler.h"
#include "run/gpu_health.h"
#include "run/task_runner.h"
#include "util/text_file.h"
#include "util/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <optional>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::vector<const TaskInfo*> checked_tasks(const LabInfo& lab, const std::string& only)
{
    std::vector<const TaskInfo*> tasks;
    for (const auto& t : lab.tasks)
        if (only.empty() || t.id == only) tasks.push_back(&t);
    return tasks;
}

// Every task gets the same single finding (nothing ran past the build).
void every_task_finds(LabCheck& out, const std::vector<const TaskInfo*>& tasks, Verdict kind, const std::string& message)
{
    for (const TaskInfo* t : tasks) {
        TaskCheck check;
        check.task = t;
        check.evidence = {t->id, {Finding {kind, message, "", ""}}};
        check.verdict = decide(check.evidence);
        out.tasks.push_back(std::move(check));
    }
    out.overall = kind;
}

// A student's file built as a check builds it (the machine code read beside the runs).
BuildResult build_file(const Toolchain& tc, const LabInfo& lab, const std::filesystem::path& source)
{
    return build_lab_program(tc, lab, source, build_name(lab, source), {}, /*sass_in_background=*/true);
}

// The student's program: the baseline's build when the file is the
// baseline itself (one compile, not two of the same program at once).
BuildResult build_student(const Toolchain& tc, const LabInfo& lab, const std::filesystem::path& source,
                          const TimingPhase& timing)
{
    std::error_code ec;
    if (timing.active() && std::filesystem::equivalent(source, lab.baseline_source, ec)) return timing.baseline_build();
    return build_file(tc, lab, source);
}

}  // namespace

std::shared_future<StartedBuild> start_student_build(const Toolchain& tc, const LabInfo& lab,
                                                     const std::filesystem::path& source)
{
    std::error_code ec;
    if (std::filesystem::equivalent(source, lab.baseline_source, ec)) return {};
    return std::async(std::launch::async, [&tc, &lab, source] {
               const auto t0 = Clock::now();
               BuildResult build = build_file(tc, lab, source);
               return StartedBuild {std::move(build), seconds_since(t0)};
           }).share();
}

namespace {

// The split of the runs' shared wall time between correctness and sanitizer runs.
void split_run_time(LabCheck& out, const std::vector<PlannedRun>& plan,
                    const std::vector<std::optional<RunReport>>& reports, double wall_s)
{
    double sanitizer_busy = 0, run_busy = 0;
    for (std::size_t j = 0; j < plan.size(); ++j)
        if (reports[j]) (plan[j].sanitizer() ? sanitizer_busy : run_busy) += reports[j]->process.wall_s;
    out.run_s = wall_s * (run_busy / std::max(1e-9, run_busy + sanitizer_busy));
    out.sanitizer_s = wall_s - out.run_s;
}

// A GPU the runs left broken is taken out of service, and every task's
// verdict becomes a grader error: whatever the runs said, they ran on it.
void void_if_gpu_broken(const GpuHealth& health, const GpuInfo& gpu, const std::filesystem::path& service_dir,
                        LabCheck& out)
{
    out.gpu_health_note = health.why;
    if (health.healthy) return;
    take_out_of_service(service_dir, gpu, health.why);
    for (TaskCheck& t : out.tasks)
        t.evidence.findings.push_back(
            {Verdict::grader_error,
             fmt::format("the GPU was not healthy after this check's runs ({}): it is out of service now, and this "
                         "check must run again on another GPU",
                         health.why),
             "", ""});
}

bool all_correct(const TaskCheck& t)
{
    return std::none_of(t.evidence.findings.begin(), t.evidence.findings.end(),
                        [](const Finding& f) { return is_failure(f.kind); });
}

// A GPU an earlier check found broken (gpu_service_dir): every task a
// grader error that says how to put it back in service.
bool found_out_of_service(LabCheck& out, const std::vector<const TaskInfo*>& tasks, const std::filesystem::path& gpu_service_dir)
{
    const auto why = out_of_service(gpu_service_dir, out.gpu);
    if (!why) return false;
    every_task_finds(out, tasks, Verdict::grader_error,
                     fmt::format("the GPU {} is out of service since an earlier check: {}(once it is healthy again, "
                                 "delete {})",
                                 out.gpu.name, *why, (gpu_service_dir / out.gpu.uuid).string()));
    return true;
}

// Why a check that ran its programs ran none under compute-sanitizer.
std::string sanitizer_note(bool asked, const std::optional<std::filesystem::path>& sanitizer)
{
    if (!asked) return "left out (--no-sanitizer)";
    return sanitizer ? "" : "compute-sanitizer is not installed: graded without it";
}

// One task's findings: its runs', its program's, its code's.
void gather_task_evidence(LabCheck& out, std::size_t i, const TaskInfo* task, const std::vector<PlannedRun>& plan,
                          std::vector<std::optional<RunReport>>& reports, const std::string& source_text)
{
    TaskCheck& t = out.tasks.emplace_back(TaskCheck {.task = task});
    t.evidence.task = task->id;
    gather_evidence(*out.lab, i, plan, reports, t);
    for (auto& f : findings_of_program(*task, out.build.facts)) t.evidence.findings.push_back(std::move(f));
    for (auto& f : findings_of_code(*task, out.build.facts, t.launches, source_text, out.source.filename().string()))
        t.evidence.findings.push_back(std::move(f));
    if (auto f = finding_of_launch_facts(*task, t.runs, out.gpu.sm_count)) t.evidence.findings.push_back(std::move(*f));
    if (auto f = finding_of_thread_count(*task, t.runs, out.gpu.sm_count))
        t.evidence.findings.push_back(std::move(*f));
}

// The big sizes this GPU's memory cannot hold, named: left out of the plan,
// not failed (a run would refuse them as a grader error).
std::vector<std::string> big_sizes_left_out(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks,
                                            const GpuInfo& gpu)
{
    std::vector<std::string> lines;
    for (const TaskInfo* t : tasks)
        for (const SizeCase& s : t->sizes)
            if (s.big && !fits_gpu(*find_task_spec(lab.id, t->id), s.params, gpu.memory_bytes))
                lines.push_back(fmt::format("left out {} {}: its buffers need more than the {:.0f} GB this GPU has",
                                            t->id, format_params(s.params), gpu.memory_bytes / 1e9));
    return lines;
}

// The check's correctness runs but for their program, known once built
// (out.build). The timed programs get ready during the runs (their inputs
// made while the file compiled): started beside the runs' program, their
// CUDA contexts made once it has its GPU.
CorrectnessRuns correctness_runs(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks, const GpuInfo& gpu,
                                 const CheckOptions& o, const std::optional<std::filesystem::path>& sanitizer,
                                 const LabCheck& out, TimingPhase& timing)
{
    return {&lab, tasks, {}, out.seed, &gpu, sanitizer, o.parallel_runs, {}, o.gpu_turns, {}, o.hang_after_s,
            [&timing, &out] {
                if (timing.active()) timing.prepare_student(out.build.program, out.build.facts);
            },
            [&timing] {
                if (timing.active()) timing.let_students_start();
            }};
}

// The correctness runs' inputs, made beside the compile (none without runs),
// from a copy of `runs`: the check sets the program in its own once built.
std::future<InputsAhead> make_inputs_while_building(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan)
{
    if (plan.empty()) return {};
    return std::async(std::launch::async, [runs, &plan] { return make_inputs_ahead(runs, plan); });
}

// The speed of every task with a threshold whose findings are all right,
// with the GPU alone while the timed calls run (the timing phase takes its
// turns).
void measure_speeds(LabCheck& out, TimingPhase& timing, bool timing_asked,
                    const TimingPhase::ProgramsOver& programs_over)
{
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < out.tasks.size(); ++i)
        if (timing_asked && out.tasks[i].task->threshold && all_correct(out.tasks[i])) timed.push_back(i);
    if (timing.active()) timing.first_rounds(timed, programs_over);
    for (std::size_t i : timed) out.tasks[i].timing = timing.measure(i, out.tasks[i].evidence.findings);
    timing.close_all();
}

// Each task's verdict from its findings, its likely bug, the lab's worst.
void decide_tasks(LabCheck& out)
{
    std::vector<TaskVerdict> verdicts;
    for (TaskCheck& t : out.tasks) {
        t.verdict = decide(t.evidence);
        if (is_failure(t.verdict.verdict)) t.verdict.reason.hint = likely_bug(*out.lab, t.verdict);
        verdicts.push_back(t.verdict);
    }
    out.overall = worst(verdicts);
}

}  // namespace

namespace {

// One check of a file of a lab whose functions the harness calls, in its
// steps (check_lab reads them in order; they are the phases check/lab_check.h
// declares, kCheckPhases, with what each waits for); what a step leaves, the
// next uses.
// Made, it starts what runs beside the compile: the speed baseline's build,
// its timed programs getting ready, the correctness runs' inputs.
class CheckSteps {
public:
    CheckSteps(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& o, LabCheck out,
               std::vector<const TaskInfo*> tasks, Clock::time_point start)
        : tc_(tc), gpu_(gpu), o_(o), start_(start), out(std::move(out)), tasks_(std::move(tasks)),
          gpu_before_(watches_gpu(gpu, o) ? gpu_baseline(gpu) : GpuBaseline {}),
          timing_(tc, gpu, lab, tasks_, this->out.seed, o.timing, o.gpu_turns, o.baseline_times),
          sanitizer_(o.sanitizer && gpu.present ? find_compute_sanitizer(tc.nvcc) : std::nullopt),
          plan_(gpu.present ? plan_runs(lab, tasks_, o.big, sanitizer_.has_value(), gpu.memory_bytes, this->out.seed,
                                        gpu.sm_count)
                            : std::vector<PlannedRun> {}),
          runs_(correctness_runs(lab, tasks_, gpu, o, sanitizer_, this->out, timing_)),
          inputs_ahead_(make_inputs_while_building(runs_, plan_)),
          // On the timeline (util/timeline.h), each phase names its file: a
          // class's grading writes every check's phases into one file.
          on_timeline_(fmt::format("check of {}/{}:", o.source.parent_path().filename().string(),
                                   o.source.filename().string()))
    {
    }
    CheckSteps(const CheckSteps&) = delete;
    CheckSteps& operator=(const CheckSteps&) = delete;

    static bool watches_gpu(const GpuInfo& gpu, const CheckOptions& o) { return gpu.present && !o.gpu_service_dir.empty(); }

    // 1. The student's program (or the build started before the check);
    // false: the check stops here, every task with the build's verdict.
    bool build()
    {
        const auto t0 = Clock::now();
        const double phase_start = timeline_clock();
        if (o_.started_build.valid()) {
            out.build = o_.started_build.get().build;
            out.compile_s = o_.started_build.get().seconds;
        } else {
            out.build = build_student(tc_, *out.lab, o_.source, timing_);
            out.compile_s = seconds_since(t0);
        }
        timeline_note(phase_start, on_timeline(CheckPhase::build));
        if (!out.build.ok && out.build.setup_problem)
            return stop(Verdict::grader_error, "hpclab could not build the program (a set-up problem, not your "
                                               "code):\n" + out.build.diagnostics);
        if (!out.build.ok) return stop(Verdict::compile_error, out.build.diagnostics);
        say(fmt::format("compiled in {:.1f} s{}", out.compile_s, out.build.cached ? " (up to date)" : ""));
        if (!gpu_.present) return stop(Verdict::not_run, "no GPU here: " + gpu_.why_not);
        return true;
    }

    // 2. Correctness and sanitizer runs, side by side, each a fresh process.
    void run_correctness_and_sanitizers()
    {
        for (const std::string& line : o_.big ? big_sizes_left_out(*out.lab, tasks_, gpu_) : std::vector<std::string> {})
            say(line);
        out.sanitizer_note = sanitizer_note(o_.sanitizer, sanitizer_);
        runs_.program = out.build.program;
        runs_.facts = out.build.facts;
        const auto t0 = Clock::now();
        const double phase_start = timeline_clock();
        reports_ = run_correctness(runs_, plan_, inputs_ahead_.valid() ? inputs_ahead_.get() : InputsAhead {});
        split_run_time(out, plan_, reports_, seconds_since(t0));
        timeline_note(phase_start, on_timeline(CheckPhase::runs) + " and " +
                                         std::string(check_phase(CheckPhase::sanitizer).name));
        say(fmt::format("ran {} sizes{} in {:.1f} s", plan_.size(), sanitizer_ ? " (with the sanitizer's runs)" : "",
                        out.run_s + out.sanitizer_s));
    }

    // 3. Evidence, per task (the program's machine code read beside the runs).
    void gather_evidence_of_tasks()
    {
        const double phase_start = timeline_clock();
        complete_program_code(tc_, out.build);
        const std::string source_text = read_text_file(o_.source).value_or("");  // built: a file that reads
        for (std::size_t i = 0; i < tasks_.size(); ++i)
            gather_task_evidence(out, i, tasks_[i], plan_, reports_, source_text);
        timeline_note(phase_start, on_timeline(CheckPhase::evidence));
    }

    // 4. Speed, only where everything else is right; 5. the GPU as the runs
    // left it (a broken one voids the check), looked at once the last program
    // has ended (run/gpu_health.h): beside the timed outputs' judging when the
    // timed programs were the last (the canary's run then costs the check
    // nothing; a later timing round waits for it), after the speeds otherwise.
    void measure_speeds_and_watch_gpu()
    {
        const bool watch = watches_gpu(gpu_, o_);
        std::shared_future<GpuHealth> early_look;
        const auto programs_over = [&]() -> std::function<void()> {
            if (!watch) return {};
            early_look = std::async(std::launch::async, [this] { return look_at_gpu(); }).share();
            return [look = early_look] { look.wait(); };
        };
        const auto t0 = Clock::now();
        const double phase_start = timeline_clock();
        measure_speeds(out, timing_, o_.timing, programs_over);
        out.timing_s = seconds_since(t0);
        timeline_note(phase_start, on_timeline(CheckPhase::timing));
        bool profiled = profile_slow_tasks();
        if (check_answers()) profiled = true;
        if (!watch) return;
        std::optional<GpuHealth> health;
        if (early_look.valid()) health = early_look.get();
        if (!health || (health->healthy && (timing_.programs_ran_after_over() || profiled))) health = look_at_gpu();
        void_if_gpu_broken(*health, gpu_, o_.gpu_service_dir, out);
    }

    // 4b. Each slow task (or, asked, every timed one) once more under ncu,
    // for the lesson's sentence (check/profile.h); true when any ran.
    bool profile_slow_tasks()
    {
        if (o_.profile == ProfileWhen::never) return false;
        const auto t0 = Clock::now();
        const double phase_start = timeline_clock();
        std::optional<ProfileSetup> setup;
        for (TaskCheck& t : out.tasks) {
            if (o_.profile == ProfileWhen::every ? t.task->timing.empty() : !wants_profile(t)) continue;
            if (!setup) setup = ProfileSetup {find_ncu(tc_.nvcc), &gpu_, o_.gpu_turns, out.seed, o_.hang_after_s};
            t.profile = profile_task(*setup, *out.lab, t, out.build.program, out.build.facts);
        }
        if (!setup) return false;
        out.profile_s = seconds_since(t0);
        timeline_note(phase_start, on_timeline(CheckPhase::profile));
        return true;
    }

    // 4c. The file's measured answers (lab.json "answers") against hpclab's
    // own profile of the program as given (check/profile.h
    // measure_as_given); only where speeds are measured (the counters, as
    // the times, want the GPU of a timed check). True when the profiler ran.
    bool check_answers()
    {
        const LabInfo& lab = *out.lab;
        if (lab.answers.empty() || !o_.timing) return false;
        const ProfileSetup setup {find_ncu(tc_.nvcc), &gpu_, o_.gpu_turns, out.seed, o_.hang_after_s};
        const AsGivenMeasures measured = measure_as_given(setup, tc_, lab);
        if (!measured.problem.empty()) {
            out.answers_note = "your measured answers were not checked: " + measured.problem;
            return true;
        }
        const auto given = answers_in(read_text_file(o_.source).value_or(""));
        for (TaskCheck& t : out.tasks)
            for (const AnswerAsked& q : lab.answers) {
                if (q.task != t.task->id) continue;
                const auto it = given.find(q.key());
                if (auto bad = answer_problem(q, it == given.end() ? "" : it->second, measured.values.at(q.key())))
                    t.evidence.findings.push_back({.kind = Verdict::wrong_measurement, .message = *bad,
                                                   .where = "the ANSWERS block"});
            }
        return true;
    }

    // 6. Each task's verdict.
    LabCheck decide()
    {
        decide_tasks(out);
        out.other_gpu_processes = gpu_processes_now();
        out.total_s = seconds_since(start_);
        return std::move(out);
    }

private:
    std::string on_timeline(CheckPhase p) const { return on_timeline_ + " " + std::string(check_phase(p).name); }

    void say(const std::string& line) const
    {
        if (o_.progress) o_.progress(line);
    }

    bool stop(Verdict v, const std::string& message)
    {
        every_task_finds(out, tasks_, v, message);
        out.total_s = seconds_since(start_);
        return false;
    }

    GpuHealth look_at_gpu() const
    {
        const double since = timeline_clock();
        GpuHealth health = gpu_health_after(tc_, gpu_, gpu_before_, o_.gpu_turns);
        timeline_note(since, on_timeline_ + " the GPU's health after" +
                                 (health.canary_because.empty() ? "" : " (a canary: " + health.canary_because + ")"));
        return health;
    }

    const Toolchain& tc_;
    const GpuInfo& gpu_;
    const CheckOptions& o_;
    const Clock::time_point start_;

public:
    LabCheck out;

private:
    const std::vector<const TaskInfo*> tasks_;
    const GpuBaseline gpu_before_;
    TimingPhase timing_;
    const std::optional<std::filesystem::path> sanitizer_;
    const std::vector<PlannedRun> plan_;
    CorrectnessRuns runs_;
    std::future<InputsAhead> inputs_ahead_;
    const std::string on_timeline_;
    std::vector<std::optional<RunReport>> reports_;
};

}  // namespace

LabCheck check_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& o)
{
    const auto start = Clock::now();
    LabCheck out {.lab = &lab, .source = o.source, .gpu = gpu, .seed = o.seed ? *o.seed : fresh_seed()};
    // The student's file is the whole program: judged by what it prints
    // against hpclab's own observations (check/program_check.h).
    if (!lab.kind_traits().tasks_at_sizes)
        return as_lab_check(check_program_lab(tc, gpu, lab, o.source, build_name(lab, o.source), o.gpu_turns,
                                              o.started_build),
                            gpu, out.seed);
    std::vector<const TaskInfo*> tasks = checked_tasks(lab, o.only_task);
    if (CheckSteps::watches_gpu(gpu, o) && found_out_of_service(out, tasks, o.gpu_service_dir)) return out;
    CheckSteps check(tc, gpu, lab, o, std::move(out), std::move(tasks), start);
    if (!check.build()) return std::move(check.out);
    check.run_correctness_and_sanitizers();
    check.gather_evidence_of_tasks();
    check.measure_speeds_and_watch_gpu();
    return check.decide();
}

}  // namespace hpclab
