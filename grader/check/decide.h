// The verdict on a task: one pure function turns all the evidence a check
// gathered (builds, runs, traces, sanitizer reports, timings) into one
// verdict of the table (course/verdict.h), with a message a student can act
// on. Unit-tested on the CPU; nothing here touches a GPU.
#pragma once

#include "course/verdict.h"

#include <vector>

namespace hpclab {

// The verdict of one task. The most serious finding wins, in the table's
// order; except that a sanitizer finding wins over a wrong answer, an
// out-of-bounds write or missing output of the same task: it names the line
// that causes them (a race explains outputs that change from run to run).
TaskVerdict decide(const TaskEvidence& evidence);

// The worst of several tasks' verdicts (for the exit status and a summary).
Verdict worst(const std::vector<TaskVerdict>& tasks);

}  // namespace hpclab
