// The commands' side of a lab of the kind "program" (course/lab_kind.h): its
// record, its run (which is its check), its selftest; a command that has
// nothing to do with such a lab (bench, a row of run --all) says why, in one
// sentence, instead of failing somewhere inside. The one place the CLI asks
// a lab's kind.
#pragma once

#include "context.h"

#include <filesystem>
#include <string>

namespace hpclab::cli {

struct WholeProgramCommands {
    int (*list)(Context& ctx, const LabInfo& lab);
    // The solution passes the whole check; the skeleton (`source`) runs to
    // its end, what it prints is judged, and fails.
    int (*selftest)(Context& ctx, const LabInfo& lab, bool skeleton, const std::filesystem::path& source);
    // Its check, printed; the verdict's exit status (hpclab run).
    int (*check)(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant);
    // Throws the UsageError for `command`, which does not apply, naming what to use instead.
    void (*refuse)(const LabInfo& lab, const std::string& command);
};

// The program lab's commands; null for a lab whose tasks run at sizes, where
// each command's own path applies.
const WholeProgramCommands* whole_program_commands(const LabInfo& lab);

}  // namespace hpclab::cli
