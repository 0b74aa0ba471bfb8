#include "check/timing.h"

#include "check/evidence.h"
#include "course/random.h"
#include "run/gate.h"
#include "run/run_recipe.h"
#include "util/shown_path.h"
#include "util/statistics.h"
#include "util/timeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <chrono>
#include <mutex>
#include <thread>

namespace hpclab {

namespace {

constexpr int kMaxTimingRounds = 3;
// The longest a timed program being made ready holds its shared turn (its
// inputs are made and uploaded in well under a second).
constexpr double kPreparingTurn_s = 10;
// How long a check waits for other processes to leave the GPUs before its
// timed programs start: a killed program's context can take seconds to go.
constexpr double kFreeGpuWait_s = 15;
// How long a check waits for a baseline run another check claimed (its
// first round comes as soon as its own correctness runs are over) before it
// makes one of its own.
constexpr double kAwaitedBaseline_s = 10;

// The GPUs' other processes once none is left, or when `within_s` is over
// (then the count that remains, and the timing will say it was unreliable).
std::optional<int> wait_for_free_gpus(double within_s)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(within_s);
    std::optional<int> n = gpu_processes_now();
    while (n && *n > 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        n = gpu_processes_now();
    }
    return n;
}

Finding make(Verdict kind, std::string message, std::string where)
{
    return Finding {kind, std::move(message), "", std::move(where)};
}

// The speedup's median and its spread, from the quartiles of both samples.
void update_ratio(Timing& t)
{
    if (t.student_ms.empty() || t.baseline_ms.empty()) return;
    t.ratio = median(t.baseline_ms) / median(t.student_ms);
    t.ratio_low = quantile(t.baseline_ms, 0.25) / quantile(t.student_ms, 0.75);
    t.ratio_high = quantile(t.baseline_ms, 0.75) / quantile(t.student_ms, 0.25);
}

// Whether more rounds could change the outcome: not when the whole spread
// is on one side of the threshold, with a margin.
bool conclusive(Timing& t)
{
    update_ratio(t);
    if (t.student_ms.empty() || t.baseline_ms.empty()) return true;  // a run failed: more would not help
    return t.ratio_low >= t.threshold * 1.05 || t.ratio_high < t.threshold / 1.05;
}

// A call never costs less than the harness's part of it: a median call
// below the cost taken out means that cost was measured at a bad moment,
// and the times are not to be trusted either way.
bool below_harness_cost(const RunReport& r, double harness_ms)
{
    if (!r.parent_clock || harness_ms <= 0 || r.calls.size() < 2) return false;
    std::vector<double> raw;
    for (std::size_t k = 1; k < r.calls.size(); ++k) raw.push_back(r.calls[k].parent_ms);
    return median(std::move(raw)) < harness_ms;
}

// Who else was on a GPU, named where NVML and /proc can tell.
std::string named_gpu_users()
{
    const std::vector<std::string> named = gpu_other_processes_named();
    if (named.empty()) return "another process was using a GPU of this machine";
    return fmt::format("another process was using a GPU of this machine: {}", fmt::join(named, ", "));
}

// Another process on a GPU of this machine makes timings unreliable; so
// does not knowing.
bool gpu_was_shared(std::optional<int> before, std::optional<int> after)
{
    return !before || !after || *before > 0 || *after > 0;
}

}  // namespace

// A timed call's time: hpclab's own clock from go to done, less what the
// harness adds to every call; the program's own event time only where no
// parent clock ran (a task whose inputs are not all fills). What is taken
// out is one figure for both programs of a round: the lesser of their
// quickest empty calls. Each program measures the cost in its own process
// (it differs from one process to the next, and from one moment to the
// next: a baseline's empty calls measured at a busy moment, taken out of its
// own calls alone, left it almost no time a call and failed a correct file
// at a twenty-fifth of its speed); never more than the trusted
// baseline's measure (a student's program could slow its own empty calls
// down), and the same for both, so that an error in it moves both times.
double common_harness_cost(const RunReport& baseline, const RunReport& student)
{
    if (baseline.harness_ms <= 0) return 0;
    return student.harness_ms > 0 ? std::min(student.harness_ms, baseline.harness_ms) : baseline.harness_ms;
}

double call_time(const CallReport& c, const RunReport& r, double harness_ms)
{
    if (!r.parent_clock) return c.gpu_ms;
    return std::max(c.parent_ms - harness_ms, 1e-4);
}


Finding finding_of_timing(const Timing& t)
{
    const std::string where = format_params(t.size);
    const std::string range = fmt::format("{:.2f}x {} ({:.2f}..{:.2f}; needs {:.2f}x{}{})", t.ratio, t.baseline,
                                          t.ratio_low, t.ratio_high, t.threshold, t.note.empty() ? "" : "; ", t.note);
    const double student = median(t.student_whole_ms.empty() ? t.student_ms : t.student_whole_ms);
    if (t.floor_ms > 0 && student < 0.9 * t.floor_ms)
        return make(Verdict::suspicious,
                    fmt::format("{:.3f} ms is below what the GPU's copy bandwidth allows for these bytes ({:.3f} ms): "
                                "a person will look at it",
                                student, t.floor_ms),
                    where);
    if (t.ratio_low >= t.threshold) return make(Verdict::pass, range, where);
    if (t.ratio_high < t.threshold && !t.unreliable) return make(Verdict::too_slow, range, where);
    return make(Verdict::inconclusive,
                range + (t.unreliable ? ": " + t.unreliable_why : ": too close to call, rerun"), where);
}

std::optional<Finding> finding_of_claimed_times(const Timing& t)
{
    if (t.floor_ms <= 0 || t.student_claimed_ms.empty()) return std::nullopt;
    const double claimed = median(t.student_claimed_ms);
    if (claimed >= 0.9 * t.floor_ms) return std::nullopt;
    return make(Verdict::tampering,
                fmt::format("the program reports {:.4f} ms per call (the median of its timed calls), below what the "
                            "GPU's copy bandwidth allows for the task's bytes ({:.4f} ms); hpclab's own clock saw "
                            "{:.3f} ms",
                            claimed, t.floor_ms, t.student_ms.empty() ? 0.0 : median(t.student_ms)),
                format_params(t.size));
}

bool short_of_threshold(const Timing& t)
{
    return !t.student_ms.empty() && !t.baseline_ms.empty() && t.ratio_low < t.threshold &&
           t.ratio_high >= t.threshold / kFarShort;
}

Timing judged_timing(Timing pooled, Timing fresh)
{
    update_ratio(pooled);
    update_ratio(fresh);
    if (fresh.student_ms.empty() || fresh.baseline_ms.empty() || fresh.ratio <= pooled.ratio) return pooled;
    fresh.copy_bytes_per_s = pooled.copy_bytes_per_s;
    fresh.note = fmt::format("timed again in fresh processes: {:.2f}x before", pooled.ratio);
    return fresh;
}

bool stalled_round(const std::pair<RunReport, RunReport>& round)
{
    const RunReport& student = round.second;
    const bool no_call_done =
        std::none_of(student.calls.begin(), student.calls.end(), [](const CallReport& c) { return c.done; });
    return student.status == RunStatus::timed_out && !student.process.lingered && no_call_done &&
           round.first.passed();
}

const TaskInfo* baseline_task(const LabInfo& lab, const TaskInfo& task)
{
    if (!task.threshold) return nullptr;
    return task.threshold->baseline == "reference" ? &task : lab.find_task(task.threshold->baseline);
}

Timing timing_frame(const LabInfo& lab, const TaskInfo& task)
{
    const TaskInfo* base_task = baseline_task(lab, task);
    Timing timing;
    const std::string program = shown_path(lab.baseline_source, lab.lab_dir.parent_path().parent_path());
    timing.baseline = base_task == &task ? program : "the " + base_task->id + " task of " + program;
    timing.size = task.timing;
    timing.threshold = task.threshold->min_speedup;
    timing.threshold_set_by = task.threshold->set_by;
    return timing;
}

// A moment said once, by whichever comes first: a program's end (run_task
// as the program ends, or the thread that ran it, every other way out), or
// the leave to judge its outputs (its GPU turn over, or the program not
// needed).
class Signal {
public:
    void set()
    {
        std::call_once(once_, [this] { promise_.set_value(); });
    }
    void wait() const { said_.wait(); }
    std::shared_future<void> future() const { return said_; }

private:
    std::once_flag once_;
    std::promise<void> promise_;
    std::shared_future<void> said_ = promise_.get_future().share();
};

class TimingPhase::StartSignal : public Signal {};

// A program of a first timing round: it makes its inputs and uploads them
// early, then waits at its gate until the timing phase lets it run.
struct TimingPhase::PreparedProgram {
    std::shared_ptr<Gate> gate = std::make_shared<Gate>();
    std::shared_ptr<Signal> end = std::make_shared<Signal>();
    std::shared_ptr<Signal> judge = std::make_shared<Signal>();  // its outputs may be judged
    std::future<RunReport> run;

    PreparedProgram() = default;
    PreparedProgram(const PreparedProgram&) = delete;
    PreparedProgram& operator=(const PreparedProgram&) = delete;
    // Not needed after all (a wrong answer, an exception): the program ends
    // at its closed gate, and the future's thread with it.
    ~PreparedProgram()
    {
        gate->close();
        judge->set();
        if (run.valid()) run.wait();
    }
    bool waiting() const { return run.valid() && !ran; }
    // Its timed calls: the gate opened, until the program has ended (its
    // outputs are judged after, by report(), with the GPU let go), or, not
    // `to_its_end`, until it says its calls are over and its outputs
    // written back (gate.h, wait_finished): its end then goes on off the
    // timed CPUs, beside the next program's calls, or waits for let_end
    // (run_in_turn).
    void run_calls(double within_s, bool to_its_end = true)
    {
        ran = true;
        gate->want();
        if (gate->wait_ready(within_s)) gate->go();
        else gate->close();
        if (!to_its_end && gate->opened() && gate->wait_finished(within_s)) return;
        gate->let_end();
        end->wait();
    }
    const RunReport& report()
    {
        judge->set();
        if (!judged) judged = run.get();
        return *judged;
    }

private:
    bool ran = false;
    std::optional<RunReport> judged;  // the future gives it once
};

// A task's first round: the student's program, and the baseline's unless a
// run of it is known already (baseline_times.h); tasks timed against the
// same baseline run share its program.
struct TimingPhase::PreparedRound {
    std::shared_ptr<PreparedProgram> baseline;  // null: none prepared
    std::unique_ptr<PreparedProgram> student = std::make_unique<PreparedProgram>();
    std::shared_future<std::shared_ptr<MadeInputs>> student_inputs;  // its exchange, made while the file compiles
    std::optional<std::pair<RunReport, RunReport>> first;  // (baseline, student), once run
    bool baseline_kept = false;  // the first round's baseline is a run kept from another check (baseline_times.h)
};

namespace {

// Prepared programs' timed calls in one turn, one program after the other.
// Each ends beside the next one's calls, off the timed CPUs (gate.h,
// wait_finished): its end took 30..190 ms of the turn, more than its calls
// (docs/results/check-times-h200.txt). One holding host memory from the
// lab's allocator waits instead for the turn's last calls, and such ends
// go on together: giving that memory back stalls the next program's
// copies (docs/results/streams-turn-h100.txt). A program's claim that it
// is finished decides only when the next one starts: the callers put the
// baselines' programs first, so that a student's program that says so
// early and goes on using the GPU slows only its own next task, never a
// baseline. Once the last calls are done, each program's outputs are
// judged as soon as it has ended, beside the others' ends (no timed call
// is left in the turn; a streams program's end, its pinned memory given
// back, is 0.13 s, and three of them come one after the other). The turn
// ends once every program has ended.
template <class Program> void run_in_turn(const std::vector<Program*>& programs, double within_s)
{
    // HPCLAB_PROFILE=ends: every end inside the turn, one after the other
    // (as before 2026-11-30), to measure what the overlap costs the timings
    // (scripts/timing-spread.sh).
    const bool one_at_a_time = profile_asked("ends");
    for (Program* p : programs) p->run_calls(within_s, one_at_a_time);
    for (Program* p : programs) p->gate->let_end();
    for (Program* p : programs) p->judge->set();
    for (Program* p : programs) p->end->wait();
}

// Runs a prepared program's request on another thread; its end is said as
// soon as the program ends, before the judging. Until it is ready at its
// gate (started, inputs made and uploaded) it holds a shared turn on the GPU:
// its uploads must not run beside another check's timed calls.
std::future<RunReport> start_prepared(RunRequest req, std::shared_ptr<Signal> end, std::shared_ptr<Signal> judge,
                                      GpuTurns* turns, std::shared_future<BuildResult> build = {})
{
    req.at = [end, judge = judge->future()](RunMoment m) {
        if (m == RunMoment::program_ended) end->set();
        if (m == RunMoment::judging_next) judge.wait();
    };
    return std::async(std::launch::async, [build, req, end, turns]() mutable {
        RunReport r;  // the baseline not building is reported by measure()
        std::optional<std::thread> until_ready;
        if (!build.valid() || build.get().ok) {
            if (build.valid()) req.program = build.get().program;
            auto preparing = std::make_shared<std::optional<GpuTurns::Turn>>();
            preparing->emplace(turns, false);
            // At most kPreparingTurn_s: a program that takes longer (a static
            // constructor of the student's that sleeps) must not keep every
            // other check's timing waiting; its own check still waits for it.
            until_ready.emplace([gate = req.gate, start = req.gate->opens_when(), preparing] {
                if (start.valid()) start.wait();  // not opening its GPU before: nothing to wait for
                const double since = timeline_clock();
                // Not ready in time: its uploads may now run beside another check's timed calls.
                if (!gate->wait_ready(kPreparingTurn_s))
                    timeline_note(since, "timed program not ready at its gate: its preparing turn let go");
                preparing->reset();
            });
            r = run_task(req);
        }
        // Once run_task is back the program has ended or never started:
        // the gate sees the end at once (program_started is idempotent),
        // and so does the wait above.
        req.gate->program_started();
        if (until_ready) until_ready->join();
        end->set();
        return r;
    });
}

}  // namespace

RunRequest TimingPhase::request(std::size_t index, bool of_student, const std::filesystem::path& program) const
{
    const TaskInfo& graded = *tasks_[index];
    RunTarget target {.lab = &lab_,
                      .task = of_student ? &graded : baseline_task(lab_, graded),
                      .program = program,
                      .params = graded.timing,
                      .seed = mix64(seed_ ^ 0x71A1),
                      .gpu_memory_bytes = gpu_.memory_bytes,
                      .gpu_minor = gpu_.minor,
                      .gpu_uuid = gpu_.visible_as()};
    // The baseline's outputs stay on the GPU: it is trusted, and copying
    // them back would only lengthen the check. It measures the copy.
    return timed_run(target, {.reps = graded.timing_reps,
                              .judge_outputs = of_student,
                              .measure_copy = !of_student,
                              .measure_harness = true});
}

// A later round's request: the student's with what hpclab read of its program.
RunRequest TimingPhase::student_request(std::size_t index, bool of_student, const std::filesystem::path& baseline) const
{
    RunRequest req = request(index, of_student, of_student ? student_program_ : baseline);
    if (of_student) req.facts = student_facts_;
    return req;
}

TimingPhase::TimingPhase(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab,
                         std::vector<const TaskInfo*> tasks, std::uint64_t seed, bool enabled, GpuTurns* turns,
                         BaselineTimes* shared_baselines)
    : gpu_(gpu), lab_(lab), tasks_(std::move(tasks)), seed_(seed), turns_(turns),
      baseline_keys_(tasks_.size()), prepared_(tasks_.size()), students_start_(std::make_shared<StartSignal>())
{
    if (shared_baselines) baselines_ = shared_baselines;
    active_ = enabled && gpu.present &&
              std::any_of(tasks_.begin(), tasks_.end(), [](const TaskInfo* t) { return bool(t->threshold); });
    if (!active_) return;
    // Looked at before this check starts any program of its own; a program
    // still ending (a hung kernel killed by the previous check) gets a moment.
    gpu_processes_before_ = wait_for_free_gpus(kFreeGpuWait_s);
    baseline_ = std::async(std::launch::async, [&tc, &lab] {
                    return build_lab_program(tc, lab, lab.baseline_source, "baseline");
                }).share();
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
        const TaskInfo* base_task = baseline_task(lab, *tasks_[i]);
        if (!base_task) continue;
        prepared_[i] = std::make_unique<PreparedRound>();
        baseline_keys_[i] = baseline_key(gpu, lab, *base_task, tasks_[i]->timing, tasks_[i]->timing_reps);
        const std::string& key = baseline_keys_[i];
        // Not claimed here: another check makes that run (first_rounds waits for it).
        if (!baselines_->find(key) && (baseline_programs_.count(key) || claim_baseline(key)))
            prepared_[i]->baseline = prepare_baseline(i);
        // The student's exchange needs nothing of the program: made while it
        // compiles, its program starts with the correctness runs' instead of
        // 0.2 s after them (streams' two exchanges of 768 MiB), and was
        // then ready after those runs were over (check-times-h200.txt).
        prepared_[i]->student_inputs =
            std::async(std::launch::async, [req = request(i, true, {})] { return make_inputs({req}); }).share();
    }
}

TimingPhase::~TimingPhase() { close_all(); }

bool TimingPhase::claim_baseline(const std::string& key)
{
    if (!baselines_->claim(key)) return false;
    claimed_.insert(key);
    return true;
}

// Task i's baseline program, started (one per baseline run in this check).
std::shared_ptr<TimingPhase::PreparedProgram> TimingPhase::prepare_baseline(std::size_t i)
{
    std::shared_ptr<PreparedProgram>& b = baseline_programs_[baseline_keys_[i]];
    if (!b) {
        b = std::make_shared<PreparedProgram>();
        RunRequest req = request(i, false, {});
        req.gate = b->gate;
        b->run = start_prepared(std::move(req), b->end, b->judge, turns_, baseline_);
    }
    return b;
}

// A task whose baseline run another check claimed: that run once it is kept;
// when it does not come (that check ended before its timing, or is late), a
// program of this check's own, made ready before the alone turn.
void TimingPhase::await_or_prepare_baseline(std::size_t i)
{
    PreparedRound& p = *prepared_[i];
    const std::string& key = baseline_keys_[i];
    if (p.baseline || baselines_->find(key) || baselines_->wait_for(key, kAwaitedBaseline_s)) return;
    (void)claim_baseline(key);
    p.baseline = prepare_baseline(i);
}

void TimingPhase::keep_baseline(const std::string& key, const RunReport& run)
{
    baselines_->keep(key, run);
    claimed_.erase(key);
}

void TimingPhase::close_all()
{
    for (const std::string& key : claimed_) baselines_->give_up(key);  // no run of them is coming
    claimed_.clear();
    for (auto& p : prepared_)
        if (p) p->student->gate->close();  // a program not started yet does not start at all
    let_students_start();
    prepared_.clear();
    // A baseline program never run (its task not timed: a wrong answer)
    // ends here, at its closed gate, before the GPU's health is looked at:
    // one left waiting is a process of this check still on the GPU.
    baseline_programs_.clear();
}

void TimingPhase::let_students_start() { students_start_->set(); }

void TimingPhase::prepare_student(const std::filesystem::path& program, const ProgramFacts& facts)
{
    student_program_ = program;
    student_facts_ = facts;
    for (std::size_t i = 0; i < prepared_.size(); ++i) {
        PreparedRound* p = prepared_[i].get();
        if (!p) continue;
        RunRequest req = request(i, true, program);
        req.facts = facts;
        req.inputs_ahead = p->student_inputs;
        req.gate = p->student->gate;
        req.gate->open_when(students_start_->future());
        p->student->run = start_prepared(std::move(req), p->student->end, p->student->judge, turns_);
    }
}

// The first rounds of these tasks: the prepared programs ready, then their
// calls one program after the other, all in one turn alone on the GPU (one
// wait for the GPU's other programs to end, not one per task). A baseline
// runs only when no run of it is known yet; the GPU is let go as the last
// student's program ends, and the outputs are judged after that.
void TimingPhase::first_rounds(const std::vector<std::size_t>& indices, const ProgramsOver& programs_over)
{
    const double within_s = ready_wait_s(lab_);
    std::vector<std::size_t> todo;
    for (std::size_t i : indices)
        if (prepared_[i] && !prepared_[i]->first) todo.push_back(i);
    if (todo.empty() || !baseline_build().ok) return;
    let_students_start();
    more_programs();
    for (std::size_t i : todo) await_or_prepare_baseline(i);
    for (std::size_t i : todo) {  // uploads must not share the GPU with the calls
        PreparedRound& p = *prepared_[i];
        p.student->gate->want();
        (void)p.student->gate->wait_ready(within_s);
        if (p.baseline && p.baseline->waiting()) (void)p.baseline->gate->wait_ready(within_s);
    }
    std::map<std::string, PreparedProgram*> ran;  // the baseline program that ran, per key
    std::map<std::size_t, RunReport> fresh;       // a fresh baseline run, per task
    {
        const auto turn = GpuTurns::alone(turns_);
        std::vector<PreparedProgram*> timed;  // the baselines' programs first (run_in_turn says why)
        for (std::size_t i : todo) {
            PreparedRound& p = *prepared_[i];
            const std::string& key = baseline_keys_[i];
            if (baselines_->find(key) || ran.count(key)) continue;
            if (p.baseline && p.baseline->waiting()) {
                timed.push_back(p.baseline.get());
                ran[key] = p.baseline.get();
            } else {  // its program failed for an earlier task: a fresh one
                fresh[i] = run_task(student_request(i, false, baseline_build().program));
                keep_baseline(key, fresh[i]);
            }
        }
        for (std::size_t i : todo) timed.push_back(prepared_[i]->student.get());
        run_in_turn(timed, within_s);
    }
    if (programs_over && !programs_waiting()) {
        over_said_ = true;
        before_more_programs_ = programs_over();
    }
    // Judged side by side, each from its program's end (run_in_turn): never
    // beside a timed call (RunMoment::judging_next). (One after the other,
    // each judging was quicker, but each run's end, its exchange's memory
    // given back, then came one after the other too.)
    for (const auto& [key, program] : ran) keep_baseline(key, program->report());
    for (std::size_t i : todo) {
        const std::string& key = baseline_keys_[i];
        RunReport base = fresh.count(i)  ? fresh[i]
                         : ran.count(key) ? ran[key]->report()
                                          : baselines_->find(key).value_or(RunReport {});
        prepared_[i]->baseline_kept = !fresh.count(i) && !ran.count(key);
        prepared_[i]->first.emplace(std::move(base), prepared_[i]->student->report());
    }
}

// Whether a prepared program has not run yet (a task not timed: it waits
// at its gate, on the GPU, until close_all).
bool TimingPhase::programs_waiting() const
{
    return std::any_of(prepared_.begin(), prepared_.end(), [](const std::unique_ptr<PreparedRound>& p) {
        return p && (p->student->waiting() || (p->baseline && p->baseline->waiting()));
    });
}

// Programs of this phase are about to start after programs_over was said:
// what it started is over first, and the check will know they ran.
void TimingPhase::more_programs()
{
    if (!over_said_) return;
    programs_after_over_ = true;
    if (before_more_programs_) before_more_programs_();
}

// A later round (the ratio too close to call): fresh programs, made ready as
// a first round's are (started, inputs made and uploaded at their gates,
// beside other checks' work), then their calls one after the other, alone on
// the GPU until the second has ended. (Started inside the alone turn, they
// held every other check's GPU work through their own start-up: a fifth of
// a class's alone time, docs/results/class-time-h200.txt.)
std::pair<RunReport, RunReport> TimingPhase::later_round(std::size_t index, const std::filesystem::path& baseline)
{
    more_programs();
    PreparedProgram base, student;
    for (PreparedProgram* p : {&base, &student}) {
        RunRequest req = student_request(index, p == &student, baseline);
        req.gate = p->gate;
        p->run = start_prepared(std::move(req), p->end, p->judge, turns_);
        p->gate->want();
    }
    const double within_s = ready_wait_s(lab_);
    (void)base.gate->wait_ready(within_s);
    (void)student.gate->wait_ready(within_s);
    {
        const auto turn = GpuTurns::alone(turns_);
        run_in_turn(std::vector<PreparedProgram*> {&base, &student}, within_s);
    }
    RunReport base_run = base.report();
    return {std::move(base_run), student.report()};
}

// The round, or (stalled_round) a fresh one in its place, said in the timing's note.
std::pair<RunReport, RunReport> TimingPhase::unless_stalled(std::size_t index, std::pair<RunReport, RunReport> round,
                                                            const std::filesystem::path& baseline, Timing& timing)
{
    if (!stalled_round(round)) return round;
    const double since = timeline_clock();
    std::pair<RunReport, RunReport> again = later_round(index, baseline);
    timeline_note(since, "a timed program stopped at its wall limit: the round again");
    const std::string why = fmt::format("timed again in fresh processes: the first timed program was stopped ({})",
                                        round.second.status_message);
    timing.note = timing.note.empty() ? why : timing.note + "; " + why;
    return again;
}

// One round's timed calls into `t`, with the harness's cost taken out; the
// student's timed calls are checked too (a failure among them is a finding).
// True when that cost was more than a whole call (the times are doubtful).
bool TimingPhase::absorb_round(const TaskInfo& task, std::pair<RunReport, RunReport> round, Timing& t,
                               std::vector<Finding>& findings, bool first)
{
    const auto& [baseline_run, student_run] = round;
    const double taken_out = common_harness_cost(baseline_run, student_run);
    bool doubtful = false;
    for (const bool student : {false, true}) {
        const RunReport& r = student ? student_run : baseline_run;
        if (student)
            for (auto& f : findings_of_run(task, {task.timing, "the timing size", false}, r))
                if (is_failure(f.kind)) findings.push_back(std::move(f));
        if (!r.passed()) continue;
        auto& into = student ? t.student_ms : t.baseline_ms;
        for (std::size_t k = 1; k < r.calls.size(); ++k) into.push_back(call_time(r.calls[k], r, taken_out));
        if (student)
            for (std::size_t k = 1; k < r.calls.size(); ++k) {
                t.student_whole_ms.push_back(call_time(r.calls[k], r, 0));
                t.student_claimed_ms.push_back(std::min(r.calls[k].gpu_ms, r.calls[k].host_ms));
            }
        doubtful = doubtful || below_harness_cost(r, taken_out);
        if (student) t.student_harness_ms = r.harness_ms;
        if (!student) {
            t.harness_ms = baseline_run.harness_ms;
            t.empty_calls_ms = baseline_run.empty_calls_ms;
        }
        if (!student && first) t.copy_bytes_per_s = r.copy_bytes_per_s;
    }
    return doubtful;
}

// A file short of its threshold: once more, in fresh processes (timing.h,
// judged_timing). True when the round kept is the fresh one and its
// harness cost was doubtful (absorb_round).
bool TimingPhase::confirm_shortfall(std::size_t index, const std::filesystem::path& baseline, Timing& timing,
                                    std::vector<Finding>& findings)
{
    update_ratio(timing);
    if (!short_of_threshold(timing)) return false;
    Timing fresh = timing;
    fresh.student_ms.clear();
    fresh.student_whole_ms.clear();
    fresh.baseline_ms.clear();
    const bool doubtful = absorb_round(*tasks_[index],
                                       unless_stalled(index, later_round(index, baseline), baseline, fresh), fresh,
                                       findings, false);
    timing = judged_timing(std::move(timing), std::move(fresh));
    return doubtful && !timing.note.empty();  // judged_timing notes the fresh round when it keeps it
}

std::optional<Timing> TimingPhase::measure(std::size_t index, std::vector<Finding>& findings)
{
    const TaskInfo& task = *tasks_[index];
    if (!prepared_[index]) return std::nullopt;
    first_rounds({index});  // nothing when first_rounds() ran it already
    std::unique_ptr<PreparedRound> prepared = std::move(prepared_[index]);
    const BuildResult& base = baseline_build();
    if (!base.ok) {
        findings.push_back(make(Verdict::grader_error, "the speed baseline does not build:\n" + base.diagnostics, ""));
        return std::nullopt;
    }
    Timing timing = timing_frame(lab_, task);
    // Rounds of (baseline, student), until the ratio's spread is clear of
    // the threshold: far from it, one round decides; close to it, up to
    // three. The first round was prepared during the correctness runs.
    bool again = false;  // the first round set aside: its baseline was another moment's
    bool harness_cost_doubtful = false;
    for (int round = 0; round < kMaxTimingRounds; ++round) {
        if (round > 0 && !std::exchange(again, false) && conclusive(timing)) break;
        auto pair = round == 0 ? std::move(*prepared->first) : later_round(index, base.program);
        harness_cost_doubtful |=
            absorb_round(task, unless_stalled(index, std::move(pair), base.program, timing), timing, findings,
                         round == 0);
        // A baseline kept from another check ran at another moment (the
        // GPU's clocks, the host's load): it may pass a file, but a file
        // it does not pass is timed again against a baseline run beside it.
        update_ratio(timing);
        if (round == 0 && prepared->baseline_kept && !timing.student_ms.empty() && !timing.baseline_ms.empty() &&
            timing.ratio_low < timing.threshold) {
            timing.student_ms.clear();
            timing.student_whole_ms.clear();
            timing.baseline_ms.clear();
            again = true;
        }
    }
    harness_cost_doubtful |= confirm_shortfall(index, base.program, timing, findings);
    if (gpu_was_shared(gpu_processes_before_, gpu_processes_now()))
        timing.unreliable_why = named_gpu_users();
    else if (harness_cost_doubtful)
        timing.unreliable_why = "the harness's own cost of a call, measured in the same run, was more than a whole "
                                "call: the machine was busy at that moment (rerun)";
    timing.unreliable = !timing.unreliable_why.empty();
    update_ratio(timing);
    if (timing.student_ms.empty() || timing.baseline_ms.empty()) {
        if (timing.baseline_ms.empty())
            findings.push_back(
                make(Verdict::grader_error, "the speed baseline failed its timed run", format_params(task.timing)));
        return std::nullopt;
    }
    const Work w = find_task_spec(lab_.id, task.id)->work(task.timing);
    if (timing.copy_bytes_per_s > 0 && w.bytes > 0) timing.floor_ms = w.bytes / timing.copy_bytes_per_s * 1e3;
    if (auto lie = finding_of_claimed_times(timing)) findings.push_back(std::move(*lie));
    findings.push_back(finding_of_timing(timing));
    return timing;
}

}  // namespace hpclab
