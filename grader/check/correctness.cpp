#include "check/correctness.h"

#include "check/evidence.h"
#include "course/random.h"
#include "run/run_recipe.h"
#include "run/sanitizer.h"
#include "util/parallel.h"
#include "util/timeline.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

namespace hpclab {

namespace {

// A seed per task and size, from the check's: --seed replays every run. A
// size run again (plan.h plain_size_order) gets inputs of its own.
std::uint64_t run_seed(std::uint64_t check_seed, const TaskInfo& task, const PlannedRun& run)
{
    std::string key = task.id + format_params(run.size.params);
    if (run.ends != InputEnds::none) key += "ends" + std::to_string(static_cast<int>(run.ends));
    std::uint64_t seed = check_seed;
    for (char c : key) seed = mix64(seed ^ static_cast<unsigned char>(c));
    return run.again > 0 ? mix64(seed + static_cast<std::uint64_t>(run.again)) : seed;
}

RunRequest planned_request(const CorrectnessRuns& runs, const PlannedRun& p, const ToolLog* log)
{
    const TaskInfo& task = *runs.tasks[p.task];
    RunRequest req = correctness_run({.lab = runs.lab,
                                      .task = &task,
                                      .program = runs.program,
                                      .params = p.size.params,
                                      .seed = run_seed(runs.seed, task, p),
                                      .gpu_memory_bytes = runs.gpu->memory_bytes,
                                      .gpu_minor = runs.gpu->minor,
                                      .gpu_uuid = runs.gpu->visible_as(),
                                      .big = p.size.big,
                                      .facts = runs.facts},
                                     {.under_sanitizer = p.sanitizer(), .hang_after_s = runs.hang_after_s});
    if (!p.sanitizer()) req.wrapper = runs.wrapper;
    if (p.ends != InputEnds::none)
        req.fill_inputs = [spec = req.spec, params = p.size.params, seed = req.seed, ends = p.ends](CallBuffers& call) {
            spec->generate(params, seed, call);
            shape_inputs(spec->input_fills(params), ends, call);
        };
    if (p.sanitizer()) {  // without a log: a request only to make inputs by (make_inputs_ahead)
        req.wrapper = sanitizer_command(*runs.sanitizer, p.tool, log ? log->file() : std::filesystem::path {});
        if (log) req.writable.push_back(log->dir());
    }
    return req;
}

// The plan's runs as the jobs that run them: one program for the plain
// sizes of every task, one for every task's sizes under each sanitizer tool
// (run_tasks_together), one for each size past 2^31 bytes. Each process
// costs a CUDA context, and contexts are made one at a time on a GPU: in a
// class's grading that is what bounds the pace, so a check makes as few as
// it can.
std::vector<std::vector<std::size_t>> jobs_of(const std::vector<PlannedRun>& plan)
{
    std::map<std::string, std::vector<std::size_t>> together;
    std::vector<std::vector<std::size_t>> big;
    for (std::size_t j = 0; j < plan.size(); ++j) {
        if (plan[j].size.big) big.push_back({j});
        else together[plan[j].tool].push_back(j);
    }
    // The sanitizer's programs first (racecheck, then memcheck): the tool
    // alone takes about a second to start, so they end last (HPCLAB_TIMELINE
    // shows it), and their inputs are small. Then the plain sizes, which
    // decide most verdicts; the sizes past 2^31 bytes last.
    std::vector<std::vector<std::size_t>> jobs;
    for (auto it = together.rbegin(); it != together.rend(); ++it)
        if (!it->first.empty()) jobs.push_back(std::move(it->second));
    if (together.count("")) jobs.push_back(std::move(together[""]));
    for (auto& b : big) jobs.push_back(std::move(b));
    return jobs;
}

class CorrectnessJobs {
public:
    CorrectnessJobs(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan,
                    std::vector<std::vector<std::size_t>> jobs, InputsAhead ahead)
        : runs_(runs), plan_(plan), jobs_(std::move(jobs)), ahead_(std::move(ahead)),
          timed_out_(std::make_unique<std::atomic<bool>[]>(runs.tasks.size())), reports_(plan.size()),
          inputs_noted_(std::make_unique<std::atomic<bool>[]>(jobs_.size())),
          opened_noted_(std::make_unique<std::atomic<bool>[]>(jobs_.size()))
    {
    }
    std::size_t size() const { return jobs_.size(); }

    // The first `first` jobs (those that start at once) are awaited: each
    // one's inputs, and each plain job's program having its GPU.
    void await_first_jobs(std::size_t first)
    {
        first_jobs_ = first;
        std::size_t plain = 0;
        for (std::size_t k = 0; k < first; ++k) {
            if (plan_[jobs_[k].front()].sanitizer()) opened_noted_[k] = true;  // the tool's start takes a second
            else ++plain;
        }
        inputs_left_ = first;
        opened_left_ = plain;
        if (first == 0) tell_all();
    }
    // Job k has made its runs' inputs; its program has its GPU (or ended
    // without it). Said on once every first job has.
    void inputs_made(std::size_t k)
    {
        if (k >= first_jobs_ || inputs_noted_[k].exchange(true)) return;
        if (--inputs_left_ > 0) return;
        if (runs_.once_inputs_made) runs_.once_inputs_made();
        if (opened_left_ == 0) tell_under_way();
    }
    void gpu_opened(std::size_t k)
    {
        if (k >= first_jobs_ || opened_noted_[k].exchange(true)) return;
        if (--opened_left_ == 0 && inputs_left_ == 0) tell_under_way();
    }
    // Both callbacks, those not said yet (at the latest, as run_correctness returns).
    void tell_all()
    {
        if (inputs_left_.exchange(0) > 0 && runs_.once_inputs_made) runs_.once_inputs_made();
        tell_under_way();
    }

    // Job k's runs: together where they can. The runs a program could not
    // finish (crashed, cut short, stopped for another task's time-out, or
    // any under a sanitizer that found something) go together again, a
    // program per task, the tasks' programs at once (one after another, each
    // waited for its shared turn: 3 to 4 s each behind the timed phases of a
    // busy test run, call 22b); the runs of one task that a program of their
    // own cannot finish run alone, in order, until one fails: the task's
    // verdict is known then, and each run more is a fresh process (a second
    // under the sanitizer). So is a task one of whose finished runs failed
    // with a verdict that no run's could outrank (tampering; a crash in a
    // later size would outrank a wrong answer): its unfinished runs are not
    // run again. (Meant for vecadd3's early_done_thread.cu, whose eleven
    // sizes ran alone in call 22b; they still did in call 23c: none of its
    // finished runs is judged tampering there.) A task that hit the time
    // limit anywhere is not run again: its other sizes would only wait out
    // the same limit.
    void run(std::size_t k)
    {
        const std::vector<std::size_t>& ran = jobs_[k];
        const std::vector<std::size_t> left = undecided(ran, run_program(k, ran));
        gpu_opened(k);  // its program has ended: one that never had its GPU holds nobody up
        const auto task_of = [&](std::size_t j) { return plan_[j].task; };
        if (std::all_of(ran.begin(), ran.end(), [&](std::size_t j) { return task_of(j) == task_of(ran.front()); }))
            return run_alone_until_failure(k, left);
        std::map<std::size_t, std::vector<std::size_t>> by_task;
        for (std::size_t j : left) by_task[task_of(j)].push_back(j);
        std::vector<std::future<void>> tasks;
        for (auto& [task, runs] : by_task)
            tasks.push_back(std::async(std::launch::async, [this, k, &runs = runs] {
                run_alone_until_failure(k, undecided(runs, run_program(k, runs)));
            }));
        for (auto& t : tasks) t.get();
    }
    std::vector<std::optional<RunReport>> take() { return std::move(reports_); }

private:
    void tell_under_way()
    {
        if (runs_.once_under_way && !under_way_told_.exchange(true)) runs_.once_under_way();
    }
    // A program under way: its runs, and the flag that stops it.
    struct Program {
        std::vector<std::size_t> runs;
        std::atomic<bool> cancel {false};
    };
    // The runs of `group` whose task has not timed out, in one program (a
    // single run: none, it goes alone); those it did not finish are returned.
    // While it runs, a time-out of one of their tasks stops it.
    std::vector<std::size_t> run_program(std::size_t k, const std::vector<std::size_t>& group)
    {
        Program program;
        {
            std::lock_guard lock(mutex_);
            for (std::size_t j : group)
                if (!timed_out_[plan_[j].task]) program.runs.push_back(j);
            if (program.runs.size() < 2) return program.runs;
            running_.push_back(&program);
        }
        std::vector<std::optional<RunReport>> together = run_together(k, program.runs, program.cancel);
        {
            std::lock_guard lock(mutex_);
            running_.erase(std::find(running_.begin(), running_.end(), &program));
        }
        together.resize(program.runs.size());  // empty: none finished (the sanitizer found something)
        std::vector<std::size_t> left;
        for (std::size_t i = 0; i < program.runs.size(); ++i) {
            const std::size_t j = program.runs[i];
            if (together[i] && together[i]->status != RunStatus::cancelled) keep(j, std::move(together[i]));
            else left.push_back(j);
        }
        return left;
    }
    void note_time_out(std::size_t j, const std::optional<RunReport>& r)
    {
        if (!r || r->status != RunStatus::timed_out) return;
        std::lock_guard lock(mutex_);
        const std::size_t task = plan_[j].task;
        timed_out_[task] = true;
        for (Program* program : running_)
            for (std::size_t i : program->runs)
                if (plan_[i].task == task) program->cancel = true;
    }
    void keep(std::size_t j, std::optional<RunReport> r)
    {
        note_time_out(j, r);
        if (r && r->status != RunStatus::cancelled) reports_[j] = std::move(r);
    }
    // Of the runs `left` unfinished by a program of the runs `ran`, those
    // whose task's verdict its finished runs do not decide, whatever the
    // others would say. Reads only the reports of `ran`, which this thread wrote.
    std::vector<std::size_t> undecided(const std::vector<std::size_t>& ran, const std::vector<std::size_t>& left) const
    {
        const auto outranks_every_run = [](Verdict v) {
            const auto table = verdict_table();
            return std::all_of(table.begin(), table.end(), [v](const VerdictInfo& i) {
                return i.kind != VerdictClass::run || precedence(v) < precedence(i.verdict);
            });
        };
        std::set<std::size_t> failed;
        for (std::size_t j : ran)
            if (reports_[j] && !plan_[j].sanitizer() &&
                outranks_every_run(verdict_of_run(*runs_.tasks[plan_[j].task], plan_[j].size.params, *reports_[j]).verdict))
                failed.insert(plan_[j].task);
        std::vector<std::size_t> still;
        for (std::size_t j : left)
            if (!failed.count(plan_[j].task)) still.push_back(j);
        return still;
    }
    void run_alone_until_failure(std::size_t k, const std::vector<std::size_t>& js)
    {
        for (std::size_t j : js) {
            std::optional<RunReport> r = run_alone(k, j);
            const bool failed = r && failed_run(plan_[j], *r);
            keep(j, std::move(r));
            if (failed || timed_out_[plan_[j].task]) return;
        }
    }
    // A run whose task's verdict is a failure whatever its other sizes say:
    // judged alone as the check will judge it (an output cut at its limit
    // too: the sizes after it ran on, alone, in call 22b, 22 s for one file),
    // but for a finding the GPU's other work could have made, which runs
    // again with the GPU alone (confirm_alone).
    bool failed_run(const PlannedRun& p, const RunReport& r) const
    {
        if (r.status == RunStatus::cancelled || r.status == RunStatus::too_large) return false;  // no one's fault
        if (p.sanitizer()) return parse_sanitizer_output(r.tool_log, {}, "").errors > 0;
        const TaskInfo& task = *runs_.tasks[p.task];
        return !r.passed() || (is_failure(verdict_of_run(task, p.size.params, r).verdict) &&
                               !bent_by_load(task, p.size.params, r));
    }
    std::vector<std::optional<RunReport>> run_together(std::size_t k, const std::vector<std::size_t>& js,
                                                       const std::atomic<bool>& cancel)
    {
        const PlannedRun& first = plan_[js.front()];
        const auto log = first.sanitizer() ? std::make_unique<ToolLog>() : nullptr;
        std::vector<RunRequest> reqs;
        for (std::size_t j : js) reqs.push_back(planned_request(runs_, plan_[j], log.get()));
        reqs.front().cancel = &cancel;
        reqs.front().at = moments_of_job(k);
        // The inputs made ahead are the job's whole first program's.
        std::shared_ptr<MadeInputs> made;
        if (k < ahead_.size() && js == jobs_[k]) made = std::exchange(ahead_[k], nullptr);
        auto reports = while_program_runs(runs_.turns, false, reqs.front(),
                                          [&] { return run_tasks_together(reqs, std::move(made)); });
        return log ? with_tool_log(std::move(reports), log->read()) : reports;
    }

    // The tool's one log speaks for every size only when it found nothing:
    // then each size's report gets it. A time-out stands for its size, with
    // the log (the sizes before it are not judged, as after a time-out
    // alone). Otherwise the sizes run alone, each with a log of its own.
    std::vector<std::optional<RunReport>> with_tool_log(std::vector<std::optional<RunReport>> reports,
                                                        const std::string& log)
    {
        const bool clean = std::all_of(reports.begin(), reports.end(), [&](const auto& r) {
            return r && r->status == RunStatus::completed && r->process.exit_code == 0;
        }) && parse_sanitizer_output(log, {}, "").errors == 0;
        const auto timed_out = std::find_if(reports.begin(), reports.end(),
                                            [](const auto& r) { return r && r->status == RunStatus::timed_out; });
        if (!clean && timed_out == reports.end()) return {};
        for (auto it = reports.begin(); it != reports.end(); ++it) {
            if (clean || it == timed_out) (*it)->tool_log = log;
            else it->reset();
        }
        return reports;
    }

    // One run in a program of its own, stopped when its task times out elsewhere.
    // What job k's runs tell the check: its inputs made, its GPU opened.
    std::function<void(RunMoment)> moments_of_job(std::size_t k)
    {
        return [this, k](RunMoment m) {
            if (m == RunMoment::inputs_made) inputs_made(k);
            if (m == RunMoment::gpu_opened) gpu_opened(k);
        };
    }

    std::optional<RunReport> run_alone(std::size_t k, std::size_t j)
    {
        const PlannedRun& p = plan_[j];
        if (timed_out_[p.task]) return std::nullopt;
        const auto log = p.sanitizer() ? std::make_unique<ToolLog>() : nullptr;
        RunRequest req = planned_request(runs_, p, log.get());
        req.cancel = &timed_out_[p.task];
        req.at = moments_of_job(k);
        // A size past 2^31 bytes has the GPU alone (every hpclab on the machine,
        // gpu/gpu_turns.h): eight checks' big sizes at once, in a grading,
        // would ask for more device and host memory than there is.
        RunReport r = while_program_runs(runs_.turns, p.size.big, req, [&] { return run_task(req); });
        if (log) r.tool_log = log->read();
        return r;
    }
    const CorrectnessRuns& runs_;
    const std::vector<PlannedRun>& plan_;
    std::vector<std::vector<std::size_t>> jobs_;  // a job's own entry changes only in its own run()
    InputsAhead ahead_;  // per job, taken by its first program (a job's own entry, as above)
    std::mutex mutex_;  // one time-out noted at a time, against the programs running
    std::unique_ptr<std::atomic<bool>[]> timed_out_;  // per task; it also stops the task's runs alone
    std::vector<Program*> running_;                   // the programs of several runs under way
    std::vector<std::optional<RunReport>> reports_;  // each job writes its own runs' places
    std::size_t first_jobs_ = 0;  // set before the jobs start
    std::unique_ptr<std::atomic<bool>[]> inputs_noted_;  // per job: its first inputs made
    std::unique_ptr<std::atomic<bool>[]> opened_noted_;  // per job: its program had its GPU
    std::atomic<std::size_t> inputs_left_ {0};  // first jobs whose inputs are not made yet
    std::atomic<std::size_t> opened_left_ {0};  // first plain jobs whose program has no GPU yet
    std::atomic<bool> under_way_told_ {false};
};

// A plain run whose finding the machine's other work could have made
// (bent_by_load) runs once more in a program of its own, with the GPU alone
// (run_recipe.h, confirming_run): its report stands in for the first.
void confirm_alone(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan,
                   std::vector<std::optional<RunReport>>& reports)
{
    for (std::size_t j = 0; j < plan.size(); ++j) {
        const PlannedRun& p = plan[j];
        if (p.sanitizer() || !reports[j] || !bent_by_load(*runs.tasks[p.task], p.size.params, *reports[j])) continue;
        const double since = timeline_clock();
        RunRequest req = confirming_run(planned_request(runs, p, nullptr));
        reports[j] = while_program_runs(runs.turns, true, req, [&] { return run_task(req); });
        timeline_note(since, "a finding the machine's other work could have made: its run again, the GPU alone, "
                             "on the timed CPUs");
    }
}

}  // namespace

InputsAhead make_inputs_ahead(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan)
{
    InputsAhead ahead;
    for (const std::vector<std::size_t>& job : jobs_of(plan)) {
        std::vector<RunRequest> reqs;
        for (std::size_t j : job) reqs.push_back(planned_request(runs, plan[j], nullptr));
        ahead.push_back(reqs.size() > 1 ? make_inputs(reqs) : nullptr);
    }
    return ahead;
}

std::vector<std::optional<RunReport>> run_correctness(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan,
                                                      InputsAhead ahead)
{
    CorrectnessJobs state(runs, plan, jobs_of(plan), std::move(ahead));
    std::vector<std::function<int()>> jobs;
    for (std::size_t k = 0; k < state.size(); ++k)
        jobs.push_back([&state, k] {
            state.run(k);
            return 0;
        });
    // A job's follow-ups (a program per task, after one that could not
    // finish) run beside it, past this count: only after a failure, one
    // program per task of the lab.
    const int workers = runs.parallel + (runs.sanitizer ? 2 : 0);
    state.await_first_jobs(std::min<std::size_t>(state.size(), static_cast<std::size_t>(std::max(1, workers))));
    run_bounded(std::move(jobs), workers);
    state.tell_all();  // at the latest now (a first job made none: its task timed out everywhere)
    std::vector<std::optional<RunReport>> reports = state.take();
    confirm_alone(runs, plan, reports);
    return reports;
}

}  // namespace hpclab
