// The course's walkthroughs as a kit carries them: a page names files the
// kit does not ship (a solution, a tuned version in bench/, the broken set)
// and runs commands the kit cannot (`--solution`). Each such mention is
// marked where it stands, so that a student of the kit reads at once that
// it is the course's, not missing from their copy.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace hpclab {

// Written right after a quoted path or command that only the course has.
inline constexpr std::string_view kCourseOnlyMark = " (the course's: not in this kit)";

// `page` with every quoted path of the course (its first folder is one of
// `course`'s) that `kit` lacks, and every quoted command or code line that
// runs `--solution`, followed by kCourseOnlyMark (in a code block: as a
// shell comment). A path with placeholders (`bench/<lab>/tuned.cu`) counts
// by the part before its first placeholder. A mention marked already is
// left as it is.
std::string mark_course_only(const std::string& page, const std::filesystem::path& course,
                             const std::filesystem::path& kit);

// Whether the quoted `path` (as a page writes it) is the course's and not
// the kit's.
bool course_only_path(std::string_view path, const std::filesystem::path& course, const std::filesystem::path& kit);

}  // namespace hpclab
