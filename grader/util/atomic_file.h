// A file written whole: results, settings, reports, the course config.
#pragma once

#include <filesystem>
#include <string>

namespace hpclab {

// Writes `text` to `file` so that a reader (or a crash) sees the old file or
// the new one, never a part: a temporary beside it, flushed, then renamed.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace hpclab
