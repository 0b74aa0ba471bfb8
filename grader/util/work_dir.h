// A fresh private folder for one step (a sandboxed run's work folder, the
// sanitizer's log), made with mkdtemp (mode 0700) and removed with the object.
#pragma once

#include <filesystem>
#include <string>

namespace hpclab {

class WorkDir {
public:
    explicit WorkDir(const std::string& what);  // /tmp/hpclab-<what>-XXXXXX
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    const std::filesystem::path& path() const { return dir_; }

private:
    std::filesystem::path dir_;
};

}  // namespace hpclab
