#include "util/timeline.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hpclab {

namespace {

const auto g_started = std::chrono::steady_clock::now();

// The file, opened once for appending (O_APPEND: one write is one line, even
// from several threads), or -1 without HPCLAB_TIMELINE. A value that ends
// in '/' is a folder: each process writes a file of its own there, named by
// its pid and start, whose first line is its command line and its start on the wall
// clock (a test run's hundreds of hpclab processes, told apart and put on
// one clock by scripts/test-timelines.py).
int open_timeline(const std::string& path)
{
    if (!path.ends_with('/')) return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    // The pid and the wall clock's microsecond: a pid comes back in a long run.
    const double wall_at_start =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() -
        std::chrono::duration<double>(std::chrono::steady_clock::now() - g_started).count();
    const int fd = ::open(fmt::format("{}hpclab-{}-{:.0f}.txt", path, ::getpid(), wall_at_start * 1e6).c_str(),
                          O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return fd;
    std::string argv;
    if (std::FILE* f = std::fopen("/proc/self/cmdline", "r")) {
        for (int c; (c = std::fgetc(f)) != EOF;) argv += c ? static_cast<char>(c) : ' ';
        std::fclose(f);
    }
    const std::string line = fmt::format("# started {:.6f} argv {}\n", wall_at_start, argv);
    [[maybe_unused]] const auto written = ::write(fd, line.data(), line.size());
    return fd;
}

int timeline_fd()
{
    static const int fd = [] {
        const char* path = std::getenv("HPCLAB_TIMELINE");
        return path && *path ? open_timeline(path) : -1;
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
