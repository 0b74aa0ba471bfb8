// A path as messages show it: relative to the course's folder when inside
// it ("bench/matmul/cublas.cu"), else as given.
#pragma once

#include <filesystem>
#include <string>

namespace hpclab {

inline std::string shown_path(const std::filesystem::path& p, const std::filesystem::path& root)
{
    std::error_code ec;
    const std::filesystem::path rel = std::filesystem::relative(p, root, ec);
    return ec || rel.empty() || rel.string().rfind("..", 0) == 0 ? p.string() : rel.string();
}

}  // namespace hpclab
