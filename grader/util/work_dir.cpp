#include "util/work_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <system_error>

namespace hpclab {

namespace fs = std::filesystem;

WorkDir::WorkDir(const std::string& what)
{
    std::string pattern = (fs::temp_directory_path() / ("hpclab-" + what + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    dir_ = pattern;
}

WorkDir::~WorkDir()
{
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

}  // namespace hpclab
