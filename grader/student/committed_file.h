// The committed version of a file, from git: what `labs/` held before a
// student edited it. Used where the course's own skeleton matters (the
// maintainer check that every skeleton fails).
#pragma once

#include "course/lab_catalog.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// The file's content at HEAD in the git checkout `repo`, or nothing when git
// is missing, `repo` is not a checkout, or the file is not tracked.
std::optional<std::string> committed_content(const std::filesystem::path& repo, const std::filesystem::path& relative);

// The checkout's commit ("1a2b3c4d5e6f", "-dirty" appended when tracked files
// changed), or "" when it is not a git checkout. For the records of what
// was measured.
std::string checkout_commit(const std::filesystem::path& repo);
// The tracked files that differ from the checkout's commit, as paths
// relative to `repo`; none when it is clean or not a git checkout.
std::vector<std::string> changed_tracked_files(const std::filesystem::path& repo);

// The course's own skeleton of `lab`: the git blob its lab.json names, which
// no commit of the student's changes (`from_course` true), from git or, in
// a copy without history, the file in labs/ when its content is that blob;
// without one, the committed version (false).
std::optional<std::string> course_skeleton(const std::filesystem::path& repo, const LabInfo& lab, bool& from_course);

}  // namespace hpclab
