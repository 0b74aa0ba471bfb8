// The committed version of a file, from git: what `labs/` held before a
// student edited it. Used where the course's own skeleton matters (the
// maintainer check that every skeleton fails).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace hpclab {

// The file's content at HEAD in the git checkout `repo`, or nothing when git
// is missing, `repo` is not a checkout, or the file is not tracked.
std::optional<std::string> committed_content(const std::filesystem::path& repo, const std::filesystem::path& relative);

}  // namespace hpclab
