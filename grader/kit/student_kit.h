// The course as students get it (hpclab export-student-kit): the skeletons
// as the course hands them out, the labs' specs and metadata, the docs, the
// common header and hpclab itself; no solutions, no tuned or library
// variants, no broken or hostile sets, no instructors' files. The speed
// baselines the checks time against ship compiled (baselines/<lab>.o, for
// the architectures asked), so `hpclab check` in the kit gives the same
// verdicts, speed included, without showing their source. The kit has its
// own README, its own tests (every skeleton compiles, and fails) and, where
// git is installed, one commit, so that `hpclab reset` finds the skeletons.
#pragma once

#include "course/lab_catalog.h"
#include "run/toolchain.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace hpclab {

struct KitOptions {
    std::filesystem::path out;            // absent or empty
    std::string architectures = "75;80;86;89;90;100;120";  // of the compiled baselines
    std::function<void(const std::string&)> say;
};

struct KitResult {
    int files = 0;                        // copied from the course
    std::vector<std::string> baselines;   // "matmul: bench/matmul/tuned.cu"
    bool committed = false;               // a git repository with one commit
    std::vector<std::string> warnings;
};

// Throws std::runtime_error (what is wrong, nothing half made left behind).
KitResult export_student_kit(const Toolchain& tc, const Catalog& catalog, const KitOptions& options);

// The paths of the course that go into a kit, relative to its root.
const std::vector<std::string>& kit_paths();

}  // namespace hpclab
