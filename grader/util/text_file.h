// A whole file as a string: sources (build cache keys, grade records), the
// progress file, images.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace hpclab {

// The file's bytes, or nothing when it cannot be opened.
inline std::optional<std::string> read_text_file(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace hpclab
