// The commands' side of a lab of the kind "program" (LabInfo::owns_main):
// check (and selftest, run, watch through it) judge the whole program
// (check/program_check.h); a command that has nothing to do with such a
// lab says why, in one sentence, instead of failing somewhere inside.
#pragma once

#include "context.h"

#include "course/verdict.h"

#include <filesystem>
#include <optional>
#include <string>

namespace hpclab::cli {

// hpclab check of a program lab: builds, runs, prints every judged line and
// the verdict; the exit status of the verdict, or of --expect.
int check_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant,
                  std::optional<Verdict> expect);

// The UsageError for `command` on a program lab, naming what to use instead.
[[noreturn]] void refuse_program_lab(const LabInfo& lab, const std::string& command, const std::string& instead);

}  // namespace hpclab::cli
