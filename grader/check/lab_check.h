// The types of a check, shared by its steps (plan, correctness, evidence,
// timing, decide, the program check) and its readers (the CLI, grading,
// records): what a check is asked (CheckOptions) and what it found
// (LabCheck: a TaskCheck per task, its runs, its timing). Here, not in
// check/check.h, so that the steps need not include the orchestration.
#pragma once

#include "course/input_ends.h"
#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "gpu/gpu_probe.h"
#include "gpu/gpu_turns.h"
#include "run/run_recipe.h"
#include "run/run_request.h"
#include "run/sanitizer.h"
#include "run/toolchain.h"
#include "wire/exchange.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

class BaselineTimes;  // check/baseline_times.h
struct ProgramCheck;  // check/program_check.h

// The task's speed against its baseline, from timed runs in this check.
struct Timing {
    std::string baseline;             // "bench/matmul/tuned.cu", or "the naive task of bench/matmul/tuned.cu"
    Params size;
    std::vector<double> student_ms, baseline_ms;  // every timed call, on hpclab's clock
    // The student's timed calls with nothing taken out: what the suspicion of
    // a call faster than the copy floor is judged on. The harness's cost is
    // measured in a moment of its own, and under load it can come out more
    // than a call actually paid, which would take an honest call below the
    // floor (bench/vecadd3/vectorized.cu, ten checks at once on an H200).
    std::vector<double> student_whole_ms;
    // What the student's program reports of the same calls (its own events
    // and wall clock, the lesser): a claim, which decides nothing in its
    // favour; below the copy floor it is one no honest program makes.
    std::vector<double> student_claimed_ms;
    double ratio = 0;                 // median(baseline) / median(student): the speedup
    double ratio_low = 0, ratio_high = 0;  // from the quartiles: the ratio's spread
    double threshold = 0;             // the one in effect (TaskInfo::threshold)
    std::filesystem::path threshold_set_by;  // the course config that set it; empty: lab.json
    double floor_ms = 0;              // the fewest bytes at the copy bandwidth: nothing is faster
    double copy_bytes_per_s = 0;      // the device copy's, measured by the baseline's program
    double harness_ms = 0;            // the harness's own cost of a call, taken out of both (run/call_driver.h)
    std::vector<double> empty_calls_ms;  // the baseline program's empty calls it was the quickest of
    double student_harness_ms = 0;    // the same cost measured in the student's program (the lesser is taken out of its times)
    bool unreliable = false;          // another process used the GPU meanwhile (or none could tell), or the clock was disturbed
    std::string unreliable_why;       // which of them, in a student's words
    std::string note;
};

// The student's file built before its check started: hpclab check starts
// the compile before it looks for the GPU (the driver's start, cuInit,
// takes a tenth of a second the compile need not wait for).
struct StartedBuild {
    BuildResult build;
    double seconds = 0;  // its compile's own
};

enum class ProfileWhen { never, slow, every };

struct CheckOptions {
    std::filesystem::path source;   // the file to judge
    std::shared_future<StartedBuild> started_build;  // valid: the build of `source` under way (start_student_build)
    std::string only_task;          // empty: every task
    std::optional<std::uint64_t> seed;
    bool sanitizer = true;
    bool timing = true;
    // Which tasks run once more under ncu (check/profile.h): a slow one (the
    // check's own), every timed one (hpclab check --profile), or none.
    ProfileWhen profile = ProfileWhen::slow;
    bool big = false;               // also the sizes past 2^31 bytes
    int parallel_runs = 4;          // correctness runs at once (the GPU shares well; timing runs alone)
    std::function<void(const std::string&)> progress;  // a line as each step ends
    // Where GPUs taken out of service are marked (run/gpu_health.h); empty:
    // the GPU's health is not checked after the runs.
    std::filesystem::path gpu_service_dir;
    // Shared with the other checks on this GPU (hpclab grade; hpclab check
    // makes one for its GPU, which holds across processes): correctness
    // runs take a shared turn, timing takes the GPU alone. Null: a GPU of
    // this check's own.
    GpuTurns* gpu_turns = nullptr;
    // The speed baseline's runs that other checks made on this GPU, to reuse
    // (hpclab grade: once per lab, not once per file; baseline_times.h).
    // Null: this check times the baseline itself.
    BaselineTimes* baseline_times = nullptr;
    // A plain size's cut: not done after this many seconds, it hangs
    // (run/run_recipe.h, the table of a run's limits, says why). 0: the
    // lab's limit, as hpclab grade gives.
    double hang_after_s = kHangAfterSeconds;
};

// One fresh process of the lab program.
struct SizeRun {
    SizeCase size;
    RunReport report;
    InputEnds ends = InputEnds::none;  // the inputs of a range_ends run (check/plan.h)
};

struct SanitizerRun {
    std::string tool;  // memcheck, racecheck
    SizeCase size;
    RunReport report;
    SanitizerReport findings;
    // The task's plain runs finished their calls: a run that ended early
    // only under the tool behaved differently when watched.
    bool plain_runs_finished = true;
};

// What the profiler found of a slow task (check/profile.h), for the student.
struct TaskProfile {
    std::string sentence;      // the lesson's first rule that holds; empty: none holds
    std::string measure;       // that rule's measure (course/profile_rules.h)
    // Every measure known, in kProfileMeasures' order: its name, its value as shown.
    std::vector<std::pair<std::string, std::string>> measured;
    std::string inconclusive;  // non-empty: nothing could be measured, and why
    std::string tool;          // which ncu measured ("ncu 2025.3.1")
    double seconds = 0;        // the profiler's run, ncu's start included
};

struct TaskCheck {
    const TaskInfo* task = nullptr;
    std::vector<SizeRun> runs;
    std::vector<SanitizerRun> sanitizer;
    std::optional<Timing> timing;
    std::vector<wire::KernelRecord> launches;  // what the first traced call launched
    std::uint32_t launch_count = 0;
    bool traced = false;
    TaskEvidence evidence;
    TaskVerdict verdict;
    std::optional<TaskProfile> profile;  // a slow task's (check/profile.h wants_profile)
};

struct LabCheck {
    const LabInfo* lab = nullptr;
    std::filesystem::path source;
    BuildResult build;
    GpuInfo gpu;
    std::optional<int> other_gpu_processes;  // no hpclab's, on any GPU of the machine, after the check; empty: unknown
    std::uint64_t seed = 0;
    std::vector<TaskCheck> tasks;
    Verdict overall = Verdict::pass;
    std::string sanitizer_note;       // why the sanitizer did not run, if it did not
    std::string answers_note;         // why the file's measured answers were not checked (lab.json "answers")
    std::string gpu_health_note;      // what was wrong with the GPU after the runs, or why it could not be told
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0, profile_s = 0, total_s = 0;
    // A whole program's check (course/lab_kind.h, not tasks_at_sizes): what it
    // printed against hpclab's own observations, for a person to read.
    std::shared_ptr<const ProgramCheck> whole_program;
};

// A check's phases, declared once, in the order check_lab runs them: what
// each waits for and what runs beside it (the machinery of the overlaps is
// check.cpp's CheckSteps and check/timing.h). The timeline names them by
// `name`; a check's summary and its record give the seconds of those timed
// apart under `key`.
enum class CheckPhase { build, runs, sanitizer, evidence, timing, profile, verdicts };

struct CheckPhaseInfo {
    CheckPhase id;
    std::string_view name;
    std::string_view key;              // in the record's "seconds"; empty: inside the total only
    double LabCheck::*seconds;         // null: not timed apart
    std::string_view waits_for;
    std::string_view beside;
};

inline constexpr CheckPhaseInfo kCheckPhases[] = {
    {CheckPhase::build, "build", "compile", &LabCheck::compile_s,
     "nothing: the check's first phase (in a class, a build started before the check: the compiles run ahead)",
     "the speed baseline's build, the correctness runs' inputs and the timed programs' inputs, made while the file "
     "compiles"},
    {CheckPhase::runs, "correctness runs", "runs", &LabCheck::run_s, "the build",
     "the sanitizer's runs, each program a process of its own; the timed programs start and wait at their gates, "
     "and make their CUDA contexts once the runs' program has its GPU"},
    {CheckPhase::sanitizer, "sanitizer runs", "sanitizer", &LabCheck::sanitizer_s, "the build",
     "the correctness runs (their wall time split between both by the runs' busy time)"},
    {CheckPhase::evidence, "evidence", "", nullptr,
     "the runs, and the program's machine code (read by cuobjdump beside the runs)", "nothing"},
    {CheckPhase::timing, "timing", "timing", &LabCheck::timing_s,
     "every task's evidence (a task is timed only where everything else is right), and the GPU alone (a turn)",
     "the GPU's health, looked at once the last program has ended"},
    {CheckPhase::profile, "profile", "profile", &LabCheck::profile_s,
     "the timing: only a task too slow, or close to its threshold, runs once more under ncu (check/profile.h)",
     "nothing (a shared turn of the GPU); the GPU's health is looked at after it"},
    {CheckPhase::verdicts, "verdicts", "", nullptr,
     "the timing and the GPU's health (a GPU the runs left broken voids the check)", "nothing"},
};

constexpr const CheckPhaseInfo& check_phase(CheckPhase p) { return kCheckPhases[static_cast<int>(p)]; }

}  // namespace hpclab
