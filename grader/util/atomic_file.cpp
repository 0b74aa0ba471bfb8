#include "util/atomic_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

void write_all(int fd, const std::string& text, const fs::path& file)
{
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(fmt::format("{}: cannot write: {}", file.string(), std::strerror(errno)));
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

void write_file_atomically(const fs::path& file, const std::string& text)
{
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    const fs::path partial = dir / fmt::format(".{}.partial-{}", file.filename().string(), getpid());
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot write: {}", partial.string(), std::strerror(errno)));
    try {
        write_all(fd, text, partial);
    } catch (...) {
        ::close(fd);
        ::unlink(partial.c_str());
        throw;
    }
    ::fsync(fd);  // the bytes on disk before the name points at them
    ::close(fd);
    if (::rename(partial.c_str(), file.c_str()) != 0) {
        const int err = errno;
        ::unlink(partial.c_str());
        throw std::runtime_error(fmt::format("{}: cannot write: {}", file.string(), std::strerror(err)));
    }
    if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
        ::fsync(d);  // and the rename itself
        ::close(d);
    }
}

}  // namespace hpclab
