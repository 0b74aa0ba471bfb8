#include "student/state_dir.h"

#include "util/clock_text.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

std::string local_stamp() { return now_text("%Y%m%d-%H%M%S", Zone::local); }

bool write_all(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

std::filesystem::path state_dir(const std::filesystem::path& course_root)
{
    if (const char* s = std::getenv("HPCLAB_STATE"); s && *s) return s;
    return course_root / ".hpclab";
}

fs::path write_backup(const fs::path& course_root, const LabInfo& lab, const std::string& content)
{
    const fs::path dir = state_dir(course_root) / "backups";
    fs::create_directories(dir);
    const std::string base = lab.id + "-" + local_stamp();
    const std::string ext = fs::path(lab.student_file).extension().string();
    for (int i = 1; i < 1000; ++i) {
        const fs::path name = dir / (base + (i == 1 ? "" : "-" + std::to_string(i)) + ext);
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", name.string(), std::strerror(errno)));
        const bool ok = write_all(fd, content) && ::fsync(fd) == 0;
        ::close(fd);
        if (!ok) throw std::runtime_error(fmt::format("cannot write {}", name.string()));
        return name;
    }
    throw std::runtime_error("too many backups in the same second in " + dir.string());
}

}  // namespace hpclab
