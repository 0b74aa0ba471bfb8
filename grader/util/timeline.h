// Where a command's wall time goes, for the maintainers: with
// HPCLAB_TIMELINE=<file> in the environment, every child process hpclab
// starts (compiles, links, lab programs, sanitizer runs, the canary) and
// every phase of a check appends one line to that file:
//   <start s> <end s> <what>
// in seconds since hpclab started. Nothing is written without the variable;
// a line is one write(), so the lines of several threads do not interleave.
#pragma once

#include <string_view>

namespace hpclab {

// Seconds since this process started (its static initialisation).
double timeline_clock();

// One line from `start_s` (a timeline_clock() value) to now.
void timeline_note(double start_s, std::string_view what);
// One line from `start_s` to `end_s` (both timeline_clock() values).
void timeline_span(double start_s, double end_s, std::string_view what);

// HPCLAB_PROFILE, the maintainers' other switch: set to anything, runs say
// where their time goes on stderr (profile_asked()); some values also put
// one behaviour back as it was, for an A/B (profile_asked("ends"): every
// timed program's end inside its turn; "canary": the canary after every check).
bool profile_asked(std::string_view value = {});

}  // namespace hpclab
