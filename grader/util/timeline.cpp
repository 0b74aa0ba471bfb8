#include "util/timeline.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

namespace hpclab {

namespace {

const auto g_started = std::chrono::steady_clock::now();

// The file, opened once for appending (O_APPEND: one write is one line, even
// from several threads), or -1 without HPCLAB_TIMELINE.
int timeline_fd()
{
    static const int fd = [] {
        const char* path = std::getenv("HPCLAB_TIMELINE");
        return path && *path ? ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
    }();
    return fd;
}

// The process whole, noted as its static objects go (after main): what a
// user's wall clock adds past it is the process's start and the kernel's
// part of its exit.
struct NoteAtExit {
    ~NoteAtExit()
    {
        if (timeline_fd() >= 0) timeline_note(0, "hpclab: the process to its exit");
    }
} note_at_exit;

}  // namespace

bool profile_asked(std::string_view value)
{
    const char* profile = std::getenv("HPCLAB_PROFILE");
    return profile && (value.empty() || value == profile);
}

double timeline_clock()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_started).count();
}

void timeline_note(double start_s, std::string_view what) { timeline_span(start_s, timeline_clock(), what); }

void timeline_span(double start_s, double end_s, std::string_view what)
{
    const int fd = timeline_fd();
    if (fd < 0) return;
    const std::string line = fmt::format("{:8.3f} {:8.3f} {}\n", start_s, end_s, what);
    [[maybe_unused]] const auto written = ::write(fd, line.data(), line.size());
}

}  // namespace hpclab
