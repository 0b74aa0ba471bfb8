// What a student should look at for a task's verdict: the lab's own words
// when its lab.json has some ("feedback": {"no_output": "..."}), else the
// table's advice for the class of bug; a fault that compute-sanitizer's
// memcheck located leads with that place.
#pragma once

#include "course/lab_catalog.h"
#include "course/verdict.h"

#include <string>

namespace hpclab {

std::string likely_bug(const LabInfo& lab, const TaskVerdict& verdict);

}  // namespace hpclab
