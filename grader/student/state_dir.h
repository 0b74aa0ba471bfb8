// Where hpclab keeps what it writes for the person using the course: the
// progress, the grade records of their checks, the backups `reset` makes.
// <course root>/.hpclab, or $HPCLAB_STATE when set (the test suite sets it,
// so that no test writes into the checkout; an instructor may too).
#pragma once

#include <filesystem>

namespace hpclab {

std::filesystem::path state_dir(const std::filesystem::path& course_root);

}  // namespace hpclab
