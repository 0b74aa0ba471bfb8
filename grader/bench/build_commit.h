// The commit hpclab was built from, for the records of what was measured:
// a results file names the code that measured it. Written at every build
// by cmake/HpclabGitCommit.cmake.
#pragma once

#include <string_view>

namespace hpclab {

// 12 hex digits, "-dirty" appended when tracked files differed from that
// commit at build time; "" when hpclab was not built from a git checkout.
std::string_view build_commit();

}  // namespace hpclab
