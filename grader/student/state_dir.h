// Where hpclab keeps what it writes for the person using the course: the
// progress, the grade records of their checks, the backups `reset` makes.
// <course root>/.hpclab, or $HPCLAB_STATE when set (the test suite sets it,
// so that no test writes into the checkout; an instructor may too).
#pragma once

#include "course/lab_catalog.h"

#include <filesystem>
#include <string>

namespace hpclab {

std::filesystem::path state_dir(const std::filesystem::path& course_root);

// `content` (the student's version of `lab`'s file) kept in the state
// folder's backups/ as a new file <id>-<YYYYMMDD-HHMMSS><ext> (then -2, -3,
// ... in the same second): created only where no file has that name
// (O_EXCL), so an older backup is never replaced. Its path.
std::filesystem::path write_backup(const std::filesystem::path& course_root, const LabInfo& lab,
                                   const std::string& content);

}  // namespace hpclab
