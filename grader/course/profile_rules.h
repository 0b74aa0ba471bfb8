// The profiler in one sentence: the measures hpclab reads from a slow
// file's kernels with Nsight Compute (run/profiler.h), and the rules of
// lab.json that turn them into the lesson's own sentence. A task's
// "profile" is an ordered list of rules, the lesson's first concern first:
//   "profile": [
//     {"when": "lanes_per_warp < 8",
//      "say": "your warps run {lanes_per_warp} lanes of 32: ... (docs/vecadd3.md, step 2)"}
//   ]
// The first rule whose measure is known and whose condition holds gives the
// sentence; {name} in it is that measure's value. The measures are one
// table here, so that a new lab adds sentences, not code. Below them, the
// measured answers of a lab that asks the student to read the profiler.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

struct ProfileMeasure {
    std::string_view name;
    std::string_view means;  // in a student's words
    bool categorical = false;  // a name (the top stall reason), compared with ==
};

// Every measure a rule may name, in one table (run/profiler.cpp computes each).
inline constexpr ProfileMeasure kProfileMeasures[] = {
    {"lanes_per_warp", "threads of a warp's 32 that run each instruction, on average"},
    {"sm_busy_pct", "percent of the GPU's multiprocessors' time that they had work"},
    {"occupancy_pct", "resident warps per multiprocessor, percent of its maximum (achieved occupancy)"},
    {"load_sectors_per_request", "32-byte sectors each warp's global load touches (4 for 32 ints in a row)"},
    {"store_sectors_per_request", "32-byte sectors each warp's global store touches (4 for 32 ints in a row)"},
    {"shared_wavefronts_per_request", "passes each warp's shared-memory access takes (1 without bank conflicts)"},
    {"dram_bytes_per_ideal", "bytes through device memory over the fewest the call needs"},
    {"atomics_per_block", "global atomic instructions per block launched"},
    {"kernel_share_pct", "percent of the call's time its kernels ran"},
    {"top_stall", "what warps waited for most (long_scoreboard: memory; barrier: __syncthreads; ...)", true},
};
const ProfileMeasure* find_profile_measure(std::string_view name);

// Values of one profiled call: a number per measure, a name for a
// categorical one; a measure left out is unknown (its counters did not
// come back, or it does not apply: no loads, no sectors per load).
struct ProfileValues {
    std::map<std::string, double> numbers;
    std::map<std::string, std::string> names;
    bool knows(std::string_view measure) const;
    // The value as a sentence shows it: two significant digits, or the name.
    std::string shown(std::string_view measure) const;
};

struct ProfileRule {
    std::string measure;
    char op = '<';          // '<', '>', '='
    double number = 0;      // for '<' and '>'
    std::string name;       // for '='
    std::string say;
    bool holds(const ProfileValues& v) const;
};

// A rule from lab.json's "when" and "say"; a message naming what is wrong
// when it is not one (an unknown measure, an operator, a {name} in "say").
std::optional<std::string> parse_profile_rule(const std::string& when, const std::string& say, ProfileRule& out);

// The first rule that holds, its sentence filled in; nothing when none does.
struct ProfileSentence {
    std::string measure;  // the rule's
    std::string text;
};
std::optional<ProfileSentence> profile_sentence(const std::vector<ProfileRule>& rules, const ProfileValues& v);


// Measured answers (lab.json "answers"; issue 49's diagnose lab): numbers a
// student reads off the profiler about the lab's program AS GIVEN (its
// skeleton), written in their own file as lines
//     answer <task>.<measure> = <number>
// and checked against hpclab's own profile of that program on the same GPU
// (check/profile.h). The student's file says what they measured; what
// decides is what hpclab measured, and the message never shows it (a
// student told the number would copy it rather than measure it).
// A question: a timed task of the lab and one of the profiler's numeric
// measures (course/profile_rules.h kProfileMeasures).
struct AnswerAsked {
    std::string task;
    std::string measure;
    std::string key() const { return task + "." + measure; }  // as the student writes it
};

// How far an answer may be from hpclab's measure, as a share of it: the
// counters of one run against another's differ by a few percent (a cache's
// state, the other programs), and a student reads a value rounded to two
// digits; a number a quarter off was not read from the profiler.
inline constexpr double kAnswerWithin = 0.25;

// "scale_rows.load_sectors_per_request" -> the question; a message naming
// what is wrong when it is not one (no dot, an unknown or categorical
// measure).
std::optional<std::string> parse_answer_asked(const std::string& key, AnswerAsked& out);

// The answers a file gives: for each key written in an "answer <key> =
// <text>" line (anywhere, in a comment or not), the text after '=', trimmed.
// The first line of a key counts.
std::map<std::string, std::string> answers_in(std::string_view source);

// Whether the answer `given` (the student's text, empty when none) fits
// `measured`: nothing when it does, else the message (without the
// measured value).
std::optional<std::string> answer_problem(const AnswerAsked& q, const std::string& given, double measured);

}  // namespace hpclab
