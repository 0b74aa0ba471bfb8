#include "test_support.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace hpclab::test {

TempDir::TempDir()
{
    std::string tmpl = (std::filesystem::temp_directory_path() / "hpclab-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir()
{
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& content) const
{
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
}

}  // namespace hpclab::test
