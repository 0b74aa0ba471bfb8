// The verdict on what a program lab's program printed (course/program_output.h),
// from what hpclab observed itself: the GPU's properties as the driver gives
// them to hpclab (gpu/device_properties.h), the kernel's times as hpclab's
// own timing program measured them, and what the student's object calls
// (run/link_check.h object_calls). The program owns main, so nothing it
// prints is believed for itself: a printed number passes only where it
// agrees with hpclab's own observation, and a right number the program
// cannot have measured (the call that measures it is not in its object)
// is held for a person. Pure: the CPU tests call it with made-up observations.
#pragma once

#include "course/lab_catalog.h"
#include "course/program_output.h"
#include "course/verdict.h"
#include "run/kernel_timer.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace hpclab {

// One printed line against hpclab's observation, for the report.
struct JudgedLine {
    std::string label;
    std::string printed;   // empty: not printed
    std::string expected;  // hpclab's own value, or the range it accepts
    bool ok = false;
};

struct ProgramJudgement {
    Verdict verdict = Verdict::pass;
    std::vector<JudgedLine> lines;
    std::vector<std::string> problems;  // what is wrong, most important first
};

ProgramJudgement judge_program(const ProgramOutput& printed, const std::map<std::string, std::string>& properties,
                               const KernelTimes& measured, const ProgramRules& rules,
                               const std::set<std::string>& calls);

}  // namespace hpclab
