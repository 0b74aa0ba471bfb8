// The profiler in one sentence (issue 49): a task that is too slow, or
// passes close to its threshold, runs once more at its timed size under
// Nsight Compute (run/profiler.h), and its lesson's rules (lab.json
// "profile", course/profile_rules.h) turn the counters into the sentence
// the lesson's data supports. Only slow files pay for it (ncu's start and
// its replays: seconds); it explains and decides nothing.
#pragma once

#include "check/lab_check.h"
#include "gpu/gpu_probe.h"
#include "gpu/gpu_turns.h"
#include "run/profiler.h"
#include "run/toolchain.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace hpclab {

// A pass whose ratio is below the threshold times this is slow enough to
// explain too: the student sees why before a noisier GPU turns it too slow.
inline constexpr double kSlowPassMargin = 1.2;

// The task is too slow, or passes within kSlowPassMargin of its threshold.
bool wants_profile(const TaskCheck& t);

struct ProfileSetup {
    std::optional<NcuInstall> ncu;  // none: not installed
    const GpuInfo* gpu = nullptr;
    GpuTurns* turns = nullptr;  // the run takes a shared turn, as a sanitizer's run does
    std::uint64_t seed = 0;
    // The check's cut of a plain size (CheckOptions::hang_after_s): the run
    // has a sanitizer run's limit, 4 times it (run/run_recipe.h), so that a
    // program that stalls under ncu holds the GPU's shared turn no longer.
    double hang_after_s = 0;
};

// What it measured in a line: "lanes_per_warp 32, sm_busy_pct 97, ...".
std::string measured_line(const TaskProfile& p);

// What a profile says when no rule of the lesson holds (its measures follow).
inline constexpr std::string_view kNoSentence = "no sentence of the lesson fits what it measured";

// The profile in one line, for a record and feedback.md: the sentence,
// else what was measured, else why nothing was.
std::string profile_line(const TaskProfile& p);

// hpclab check --expect-profile: whether a task's profile chose the lesson's
// sentence on `measure`, and what the profiles said otherwise.
struct ProfileExpectation {
    bool met = false;
    std::string got;  // when not met: each profiled task's line, or "no profile"
};
ProfileExpectation profile_against(const LabCheck& c, const std::string& measure);

// The measures of lab.json's "answers" (course/profile_rules.h) on the lab's
// program as given: the file "answers_program" names in the lab's folder,
// used only while its content is the course's skeleton (lab.json's
// skeleton_blob), built as a student's file is, each asked task profiled
// at its timed size. Kept beside its build, per GPU: measured once, not at
// every check of every file.
struct AsGivenMeasures {
    std::map<std::string, double> values;  // by AnswerAsked::key()
    std::string problem;                   // non-empty: none could be measured, and why
};
AsGivenMeasures measure_as_given(const ProfileSetup& setup, const Toolchain& tc, const LabInfo& lab);

// One run of `program` for task `t` at its timed size, under ncu.
TaskProfile profile_task(const ProfileSetup& setup, const LabInfo& lab, const TaskCheck& t,
                         const std::filesystem::path& program, const ProgramFacts& facts);

}  // namespace hpclab
