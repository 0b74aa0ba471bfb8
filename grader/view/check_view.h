// What hpclab check prints of a check, for a person: each task's sizes,
// what its code launched, the sanitizer's findings, its speed and its
// verdict with where and why; for a lab whose file is the whole program,
// what it printed against hpclab's own values. Paths are shown from `root`
// (the course's folder).
#pragma once

#include "check/lab_check.h"
#include "check/program_check.h"

#include <filesystem>

namespace hpclab {

// every_measure_explained: each task's profile (hpclab check --profile) as
// a measure a line, with what it means, not in a line.
void print_check(const std::filesystem::path& root, const LabCheck& c, bool every_measure_explained = false);
// What the program printed, each judged line against hpclab's own value, the verdict.
void print_program_check(const std::filesystem::path& root, const ProgramCheck& c, bool profile_asked = false);

}  // namespace hpclab
