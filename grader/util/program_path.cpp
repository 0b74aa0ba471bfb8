#include "util/program_path.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace hpclab {

std::optional<std::filesystem::path> find_on_path(std::string_view name)
{
    const char* path = std::getenv("PATH");
    if (!path) return std::nullopt;
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        const std::filesystem::path candidate = std::filesystem::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

}  // namespace hpclab
