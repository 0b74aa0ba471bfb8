// The commands' side of a lab of the kind "program" (course/lab_kind.h):
// check, run and selftest judge the whole program
// (check/program_check.h); a command that has nothing to do with such a
// lab says why, in one sentence, instead of failing somewhere inside.
#pragma once

#include "context.h"

#include "check/program_check.h"

#include <filesystem>
#include <string>

namespace hpclab::cli {

// hpclab run of a program lab: its check, printed; the verdict's exit status.
int check_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant);

// The UsageError for `command` on a program lab, naming what to use instead.
[[noreturn]] void refuse_program_lab(const LabInfo& lab, const std::string& command, const std::string& instead);

}  // namespace hpclab::cli
