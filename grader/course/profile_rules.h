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
// table here, so that a new lab adds sentences, not code.
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

}  // namespace hpclab
