#include "run/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

namespace hpclab {

namespace {

struct Pipe {
    int r = -1, w = -1;
    bool open()
    {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) return false;
        r = fds[0];
        w = fds[1];
        return true;
    }
    void close_all()
    {
        if (r >= 0) close(r);
        if (w >= 0) close(w);
        r = w = -1;
    }
};

void drain(int fd, std::string& into, bool& truncated, std::size_t limit, bool& eof)
{
    char buf[65536];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) eof = true;
        return;
    }
    const std::size_t room = into.size() < limit ? limit - into.size() : 0;
    into.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
    if (static_cast<std::size_t>(n) > room) truncated = true;
}

}  // namespace

std::string describe_signal(int sig)
{
    switch (sig) {
    case SIGSEGV: return "segmentation fault (SIGSEGV)";
    case SIGABRT: return "abort (SIGABRT)";
    case SIGFPE: return "arithmetic exception (SIGFPE)";
    case SIGBUS: return "bus error (SIGBUS)";
    case SIGILL: return "illegal instruction (SIGILL)";
    case SIGKILL: return "killed (SIGKILL)";
    case SIGTERM: return "terminated (SIGTERM)";
    default: return std::string(strsignal(sig)) + " (signal " + std::to_string(sig) + ")";
    }
}

ProcessResult run_process(const ProcessSpec& spec)
{
    ProcessResult res;
    Pipe out, err, status;
    if (!out.open() || !err.open() || !status.open()) {
        res.start_error = std::string("cannot create pipes: ") + std::strerror(errno);
        out.close_all();
        err.close_all();
        status.close_all();
        return res;
    }
    std::vector<char*> argv;
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const std::string cwd = spec.cwd.string();

    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        res.start_error = std::string("fork failed: ") + std::strerror(errno);
        out.close_all();
        err.close_all();
        status.close_all();
        return res;
    }
    if (pid == 0) {
        // Child: own process group (so that the whole group can be killed),
        // stdout/stderr to the pipes, the passed descriptors kept open.
        setpgid(0, 0);
        dup2(out.w, 1);
        dup2(err.w, 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        for (int fd : spec.pass_fds) {
            const int flags = fcntl(fd, F_GETFD);
            if (flags >= 0) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
        }
        for (const auto& [name, value] : spec.set_env) setenv(name.c_str(), value.c_str(), 1);
        signal(SIGPIPE, SIG_DFL);  // hpclab ignores it (gate.cpp); the program gets the default
        if (!spec.cpus.empty()) {
            cpu_set_t set;
            CPU_ZERO(&set);
            for (int c : spec.cpus) CPU_SET(c, &set);
            (void)sched_setaffinity(0, sizeof set, &set);  // a hint: runs anyway where it cannot hold
        }
        if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
            const int e = errno;
            (void)!write(status.w, &e, sizeof e);
            _exit(127);
        }
        execv(argv[0], argv.data());
        const int e = errno;
        (void)!write(status.w, &e, sizeof e);
        _exit(127);
    }
    setpgid(pid, pid);  // also from here, so that it holds before any kill
    out.w >= 0 ? (void)close(out.w) : (void)0;
    err.w >= 0 ? (void)close(err.w) : (void)0;
    close(status.w);
    out.w = err.w = status.w = -1;

    int exec_errno = 0;
    const ssize_t got = read(status.r, &exec_errno, sizeof exec_errno);
    close(status.r);
    status.r = -1;
    if (got == static_cast<ssize_t>(sizeof exec_errno)) {
        waitpid(pid, nullptr, 0);
        res.start_error = "cannot start " + spec.argv[0] + ": " + std::strerror(exec_errno);
        out.close_all();
        err.close_all();
        return res;
    }
    res.started = true;
    if (spec.after_start) spec.after_start();

    bool out_eof = false, err_eof = false, exited = false, killed = false;
    std::chrono::steady_clock::time_point kill_time;
    int wstatus = 0;
    const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(spec.wall_limit_s));
    auto deadline = t0 + limit;
    while (!(out_eof && err_eof && exited)) {
        if (!exited && !killed) {
            const pid_t w = waitpid(pid, &wstatus, WNOHANG);
            if (w == pid) {
                exited = true;
                // Whatever it started must not outlive it (an orphan can hold
                // the GPU); the pipes then reach end of file.
                kill(-pid, SIGKILL);
            }
        }
        const auto now = std::chrono::steady_clock::now();
        if (spec.held && spec.held->load()) deadline = now + limit;
        const bool cancel = spec.cancel && spec.cancel->load();
        if (!exited && !killed && (now >= deadline || cancel)) {
            (cancel ? res.cancelled : res.timed_out) = true;
            kill(-pid, SIGKILL);
            killed = true;
            kill_time = now;
        }
        if (!exited && killed) {
            // A process inside a kernel can take a while to die (the driver
            // tears its context down): wait for it, but not forever.
            if (waitpid(pid, &wstatus, WNOHANG) == pid) {
                exited = true;
            } else if (now - kill_time > std::chrono::seconds(20)) {
                res.unkillable = true;
                exited = true;
            }
        }
        if (out_eof && err_eof) {
            if (!exited) poll(nullptr, 0, 5);
            continue;
        }
        pollfd fds[2];
        int nfds = 0;
        if (!out_eof) fds[nfds++] = {out.r, POLLIN, 0};
        if (!err_eof) fds[nfds++] = {err.r, POLLIN, 0};
        const int timeout_ms = exited ? 200 : 20;
        const int ready = poll(fds, nfds, timeout_ms);
        if (ready == 0 && exited) {
            // The group is dead and the pipes stay quiet: stop waiting.
            break;
        }
        for (int i = 0; i < nfds; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (fds[i].fd == out.r) drain(out.r, res.out, res.out_truncated, spec.output_limit, out_eof);
            else drain(err.r, res.err, res.err_truncated, spec.output_limit, err_eof);
        }
    }
    out.close_all();
    err.close_all();
    res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!res.timed_out && !res.cancelled) {
        if (WIFEXITED(wstatus)) res.exit_code = WEXITSTATUS(wstatus);
        else if (WIFSIGNALED(wstatus)) res.signal = WTERMSIG(wstatus);
    }
    return res;
}

}  // namespace hpclab
