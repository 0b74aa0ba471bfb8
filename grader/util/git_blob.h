// Git's name of a file's content (`git hash-object`), computed without git:
// the SHA-1 of "blob <size>\0" and the bytes. A course copied without its
// history (a release tarball, `git archive`) still knows its own skeletons
// by the names lab.json gives them (skeleton_blob).
#pragma once

#include <string>
#include <string_view>

namespace hpclab {

// 40 lower-case hex digits.
std::string sha1_hex(std::string_view bytes);
std::string git_blob_id(std::string_view content);

}  // namespace hpclab
