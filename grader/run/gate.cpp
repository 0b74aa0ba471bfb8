#include "run/gate.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace hpclab {

namespace {
void close_fd(int& fd)
{
    if (fd >= 0) ::close(fd);
    fd = -1;
}
}  // namespace

Gate::Gate()
{
    int ready[2], go[2];
    // Close-on-exec: only the program these are passed to keeps them (other
    // programs started meanwhile by other threads must not hold an end open).
    if (pipe2(ready, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
    if (pipe2(go, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(ready[0]);
        ::close(ready[1]);
        throw std::system_error(e, std::generic_category(), "pipe2");
    }
    ready_r_ = ready[0];
    ready_w_ = ready[1];
    go_r_ = go[0];
    go_w_ = go[1];
}

Gate::~Gate()
{
    close_fd(ready_r_);
    close_fd(ready_w_);
    close_fd(go_r_);
    close_fd(go_w_);
    close_fd(open_r_);
    close_fd(open_w_);
}

std::string Gate::argument() const
{
    std::string a = std::to_string(go_r_) + "," + std::to_string(ready_w_);
    return open_r_ >= 0 ? a + "," + std::to_string(open_r_) : a;
}

void Gate::open_later()
{
    std::lock_guard lock(opening_);
    if (open_r_ >= 0 || closed_) return;
    int open[2];
    if (pipe2(open, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
    open_r_ = open[0];
    open_w_ = open[1];
}

void Gate::let_open()
{
    signal(SIGPIPE, SIG_IGN);  // a program gone meanwhile: EPIPE, not hpclab's end
    std::lock_guard lock(opening_);
    const char byte = 'o';
    if (open_w_ >= 0) (void)!write(open_w_, &byte, 1);
    close_fd(open_w_);  // one byte is all it reads
}

void Gate::program_started()
{
    close_fd(ready_w_);
    close_fd(go_r_);
    close_fd(open_r_);
}

bool Gate::wait_ready(double timeout_s)
{
    std::lock_guard lock(waiting_);
    if (ready_ >= 0) return ready_ == 1;
    pollfd p {ready_r_, POLLIN, 0};
    int r;
    do r = poll(&p, 1, static_cast<int>(timeout_s * 1000));
    while (r < 0 && errno == EINTR);
    if (r <= 0) return false;  // not ready in time: not remembered, the caller closes the gate
    char byte = 0;
    ssize_t n;
    do n = read(ready_r_, &byte, 1);
    while (n < 0 && errno == EINTR);
    ready_ = n == 1 ? 1 : 0;
    return ready_ == 1;
}

bool Gate::wait_finished(double timeout_s)
{
    std::lock_guard lock(waiting_);
    if (ready_ != 1 || !opened_) return false;
    pollfd p {ready_r_, POLLIN, 0};
    int r;
    do r = poll(&p, 1, static_cast<int>(timeout_s * 1000));
    while (r < 0 && errno == EINTR);
    if (r <= 0) return false;
    char byte = 0;
    ssize_t n;
    do n = read(ready_r_, &byte, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1 || byte != 'f') return false;
    held_ = go_w_ >= 0;
    return true;
}

void Gate::let_end()
{
    held_ = false;
    close_fd(go_w_);
}

bool Gate::ended_unready()
{
    std::lock_guard lock(waiting_);
    return ready_ == 0;
}

void Gate::go()
{
    // A program that ended meanwhile must not take hpclab down with SIGPIPE:
    // the write then fails with EPIPE, and the run reports how it ended.
    signal(SIGPIPE, SIG_IGN);
    opened_ = true;
    held_ = false;
    const char byte = 'g';
    // The pipe stays open: its end of file is the leave to end (let_end).
    if (go_w_ >= 0) (void)!write(go_w_, &byte, 1);
}

void Gate::close()
{
    // Wanted and never ready is the program's failure (task_runner.cpp):
    // that one keeps its limit, and says how it ended.
    if (!opened_ && !wanted_) dismissed_ = true;
    closed_ = true;
    held_ = false;
    close_fd(go_w_);
    std::lock_guard lock(opening_);
    close_fd(open_w_);  // a program not let open yet ends there
}

}  // namespace hpclab
