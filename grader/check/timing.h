// The speed part of a check: the student's timed calls against the lab's
// speed baseline (LabInfo::baseline_source), in the same check, on the same
// inputs, one program at a time, and the verdict the ratio gives.
//
// The first round of each task is prepared early: the baseline's program
// starts (inputs, a CUDA context, uploads) while the student's file
// compiles, the student's as soon as it is built; both wait at a gate
// (run/gate.h) until the timing phase lets them make their calls.
#pragma once

#include "check/baseline_times.h"
#include "check/lab_check.h"
#include "gpu/gpu_turns.h"
#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "gpu/gpu_probe.h"
#include "run/task_runner.h"
#include "run/toolchain.h"

#include <functional>
#include <map>
#include <set>
#include <future>
#include <memory>
#include <utility>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {


// What is taken out of every timed call of both programs of a round: the
// lesser of their harness costs (RunReport::harness_ms), 0 without the
// baseline's. And a timed call's time with it taken out (hpclab's clock),
// or the program's event time where no parent clock ran.
double common_harness_cost(const RunReport& baseline, const RunReport& student);
double call_time(const CallReport& c, const RunReport& r, double harness_ms);

// The verdict a speed measurement gives (pass when fast enough).
Finding finding_of_timing(const Timing& t);
// The student's own times of its timed calls below what the GPU's copy
// bandwidth allows for the task's bytes: tampering (no honest program
// measures that, however busy the machine: a load only lengthens a call).
// A claim merely shorter than hpclab's clock is no finding: on a busy host
// hpclab's view of an honest call lengthens (a scheduling delay reading its
// lines), and the claim decides nothing anyway.
std::optional<Finding> finding_of_claimed_times(const Timing& t);
// A file short of its threshold (the spread's low end below it) is timed
// once more in fresh processes, and judged on that round alone when its
// ratio is the better: a process can be slow as a whole, its own empty
// calls too (a correct vecadd3 at 0.51x, its empty calls 0.31 ms against
// the baseline's 0.25, where the file's other checks gave 0.91x:
// docs/results/calibration-h100.txt). Only the student's best measurement
// counts against it; no program can make hpclab's clock run slower for the
// baseline. The measurement kept says so in its note. A file far short (its
// spread's high end under a kFarShort-th of the threshold) is not timed
// again: no slow process explains that (the slowest seen, 1.8x, above),
// and the round's second alone turn held the other checks of the README's
// tests back (call 22b, docs/results/test-times-h200.txt).
constexpr double kFarShort = 3;
bool short_of_threshold(const Timing& t);
Timing judged_timing(Timing pooled, Timing fresh);
// A round (baseline, student) whose student's program was stopped at its
// wall limit before any call was done, while the baseline's program of the
// same turn ran through: the round runs once more, in fresh programs,
// before that limit is the student's verdict (a program that stalls again
// is judged on the second; one slow past the limit after some of its
// calls, or whose calls were done, is judged at once).
// Once, on an H200 (call Y, docs/results/test-times-h200.txt), a file
// whose check takes 5 s had its timed program make no call in 30 s; the
// same file passed every check before and after.
bool stalled_round(const std::pair<RunReport, RunReport>& round);
// A task's timing before any run: what it is measured against, at which
// size, and the threshold in effect (lab.json's or the course config's).
// Only for a task with a threshold.
Timing timing_frame(const LabInfo& lab, const TaskInfo& task);
// The baseline's task a task is timed against: the same task, or the one
// its threshold names (the baseline's naive kernel). Null without a threshold.
const TaskInfo* baseline_task(const LabInfo& lab, const TaskInfo& task);

class TimingPhase {
public:
    // Starts building the baseline and preparing its first rounds (nothing
    // when `enabled` is false or no task has a threshold).
    // `turns`: the GPU's turns when other checks share it; the timed calls
    // take it alone (null: a GPU of this check's own). `shared_baselines`:
    // the baseline runs of other checks on this GPU to reuse and add to
    // (null: this check's own; baseline_times.h).
    TimingPhase(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, std::vector<const TaskInfo*> tasks,
                std::uint64_t seed, bool enabled, GpuTurns* turns = nullptr,
                BaselineTimes* shared_baselines = nullptr);
    ~TimingPhase();  // programs still waiting end at their closed gates
    TimingPhase(const TimingPhase&) = delete;
    TimingPhase& operator=(const TimingPhase&) = delete;

    bool active() const { return active_; }
    // The baseline's build (waits for it). Only when active().
    const BuildResult& baseline_build() const { return baseline_.get(); }
    // The student's program is built: its first rounds' programs start (their
    // inputs made while it compiled), and open their GPUs once
    // let_students_start() says so.
    void prepare_student(const std::filesystem::path& program, const ProgramFacts& facts);
    // The student's prepared programs may open their GPUs (the check's
    // correctness runs have theirs: a CUDA context is made one at a time, and
    // theirs come first). Said at the latest by first_rounds() and close_all().
    void let_students_start();
    // The first rounds of these tasks, in one turn alone on the GPU (before
    // measure() of each; without it, measure() runs its task's alone).
    // `programs_over`, once the turn is over and before the outputs are
    // judged, if no program of this phase is left on the GPU (none waits at
    // its gate): the check may look at the GPU's health beside the judging.
    // What it returns (if anything) is waited for before any later program
    // of this phase starts: that look must not run beside timed calls.
    using ProgramsOver = std::function<std::function<void()>()>;
    void first_rounds(const std::vector<std::size_t>& indices, const ProgramsOver& programs_over = {});
    // Whether programs ran after programs_over was called (measure()'s later
    // rounds, for a ratio too close to call): a look at the GPU's health
    // started then did not see them.
    bool programs_ran_after_over() const { return programs_after_over_; }
    // Task `index`'s timing, or the finding why there is none. Failures of
    // the student's timed calls go into `failures` (a result cached from an
    // earlier call fails there).
    std::optional<Timing> measure(std::size_t index, std::vector<Finding>& findings);
    // Every prepared program not measured ends now.
    void close_all();

private:
    struct PreparedProgram;
    struct PreparedRound;
    class StartSignal;
    RunRequest request(std::size_t index, bool of_student, const std::filesystem::path& program) const;
    RunRequest student_request(std::size_t index, bool of_student, const std::filesystem::path& baseline) const;
    std::pair<RunReport, RunReport> later_round(std::size_t index, const std::filesystem::path& baseline);
    std::pair<RunReport, RunReport> unless_stalled(std::size_t index, std::pair<RunReport, RunReport> round,
                                                   const std::filesystem::path& baseline, Timing& timing);
    bool absorb_round(const TaskInfo& task, std::pair<RunReport, RunReport> round, Timing& t,
                      std::vector<Finding>& findings, bool first);
    bool confirm_shortfall(std::size_t index, const std::filesystem::path& baseline, Timing& timing,
                           std::vector<Finding>& findings);
    bool claim_baseline(const std::string& key);
    std::shared_ptr<PreparedProgram> prepare_baseline(std::size_t index);
    void await_or_prepare_baseline(std::size_t index);
    void keep_baseline(const std::string& key, const RunReport& run);

    const GpuInfo& gpu_;
    const LabInfo& lab_;
    std::vector<const TaskInfo*> tasks_;
    std::uint64_t seed_ = 0;
    GpuTurns* turns_ = nullptr;
    BaselineTimes own_baselines_;
    BaselineTimes* baselines_ = &own_baselines_;
    std::vector<std::string> baseline_keys_;  // per task (empty: no threshold)
    std::map<std::string, std::shared_ptr<PreparedProgram>> baseline_programs_;  // per baseline run, this check's
    std::set<std::string> claimed_;  // the baseline runs this check claimed and has not kept
    bool active_ = false;
    std::optional<int> gpu_processes_before_;
    std::shared_future<BuildResult> baseline_;
    std::filesystem::path student_program_;
    ProgramFacts student_facts_;
    std::vector<std::unique_ptr<PreparedRound>> prepared_;
    std::shared_ptr<StartSignal> students_start_;
    bool over_said_ = false;           // programs_over was called
    bool programs_after_over_ = false;  // and programs ran after it
    std::function<void()> before_more_programs_;  // what programs_over returned

    bool programs_waiting() const;
    void more_programs();
};

}  // namespace hpclab
