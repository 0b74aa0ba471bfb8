// What a student should look at for each verdict: the lab's own words when
// its lab.json has some ("feedback": {"no_output": "..."}), else a general
// one for the class of bug.
#pragma once

#include "course/lab_catalog.h"
#include "course/verdict.h"

#include <string>

namespace hpclab {

std::string likely_bug(const LabInfo& lab, Verdict v, const Finding& reason);

}  // namespace hpclab
