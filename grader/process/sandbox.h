// The sandbox every compile and run of a submission gets: bubblewrap
// (bwrap, Debian's package "bubblewrap") with new namespaces for everything
// (no network; a pid namespace whose processes all die with the run, setsid
// and double forks included), a read-only view of only what the step needs,
// a private writable work folder, a size-capped /tmp, an empty environment
// but for the variables named, and only the GPU's device nodes. Limits that
// the kernel keeps per process (file size, core dumps) are set before exec
// (process/process.cpp); bwrap keeps them.
//
// Where bwrap is missing or cannot make namespaces, the check says so once
// and runs as on a student's own machine (sandbox_unavailable()).
#pragma once

#include "process/bwrap.h"
#include "util/work_dir.h"  // a step's private folder

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hpclab {

// Why no sandbox can be made here (bwrap missing, namespaces refused), or
// nothing when one can. Tried once per hpclab process. HPCLAB_BWRAP names
// the bwrap to use (a carried copy); HPCLAB_NO_SANDBOX=1 turns it off.
std::optional<std::string> sandbox_unavailable();
void disable_sandbox(const std::string& why);  // --no-sandbox

// What every run of a student's program sees, one recipe for the lab
// program under the harness and a program the student wrote whole, under a
// wrapper (compute-sanitizer) or not: the system, the program file and the
// wrapper's, its work folder and `writable`, the one GPU, the sandbox's
// environment with `gpu_env`. Nothing of the course under `course_root`
// (its solutions, other programs, the grader's state). Empty where no
// sandbox can be made.
struct SubmissionView {
    std::filesystem::path course_root;
    std::filesystem::path program;
    std::filesystem::path wrapper;  // empty: none
    std::vector<std::filesystem::path> wrapper_folders;  // what the wrapper reads besides its file (ncu's install)
    std::filesystem::path work_dir;
    std::vector<std::filesystem::path> writable;
    int gpu_minor = -1;
    std::vector<std::pair<std::string, std::string>> gpu_env;  // run_recipe.h cuda_env
};
std::optional<SandboxSpec> submission_sandbox(const SubmissionView& view);

}  // namespace hpclab
