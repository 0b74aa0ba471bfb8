#include "process/process.h"

#include "util/timeline.h"

#include "process/orphans.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpclab {

namespace {

// The programs that did not end by themselves: programs_stopped().
std::atomic<std::uint64_t> stopped_programs {0};

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

// Reads what the pipe has; returns the bytes read (empty at end of file
// or on an error, which set `eof`).
std::string_view drain(int fd, char (&buf)[65536], std::string& into, bool& truncated, std::size_t limit, bool& eof)
{
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) eof = true;
        return {};
    }
    const std::size_t room = into.size() < limit ? limit - into.size() : 0;
    into.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
    if (static_cast<std::size_t>(n) > room) truncated = true;
    return {buf, static_cast<std::size_t>(n)};
}

// Finds the lines of a stream that start with a prefix, across reads, and
// keeps each with the time it was read. A line is kept up to 128 bytes:
// hpclab's markers are shorter, and a flood of long lines costs nothing.
class LineTagger {
public:
    explicit LineTagger(const std::string& prefix) : prefix_(prefix) {}

    void feed(std::string_view data, double at_s, std::vector<TaggedLine>& into)
    {
        if (prefix_.empty()) return;
        for (char c : data) {
            if (c == '\n') {
                if (line_.rfind(prefix_, 0) == 0) into.push_back({line_, at_s});
                line_.clear();
                overlong_ = false;
            } else if (!overlong_) {
                line_ += c;
                overlong_ = line_.size() > kMaxLine;
            }
        }
    }

private:
    static constexpr std::size_t kMaxLine = 128;
    const std::string& prefix_;
    std::string line_;
    bool overlong_ = false;
};

// The three pipes of a run: the program's stdout and stderr, and `status`,
// through which the child says why it could not exec (exec closes it).
struct Pipes {
    Pipe out, err, status;
    bool open() { return out.open() && err.open() && status.open(); }
    void close_all()
    {
        out.close_all();
        err.close_all();
        status.close_all();
    }
};

// Why the program did not start, into `res`; every pipe closed.
void record_start_error(ProcessResult& res, Pipes& pipes, std::string why)
{
    res.start_error = std::move(why);
    pipes.close_all();
}

// execv's argument vector, made in the parent before the fork.
std::vector<char*> exec_argv(const ProcessSpec& spec)
{
    std::vector<char*> argv;
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    return argv;
}

// In the child: tell the parent why through the status pipe, and end.
[[noreturn]] void report_start_failure(int status_fd)
{
    const int e = errno;
    (void)!write(status_fd, &e, sizeof e);
    _exit(127);
}

void pin_to_cpus(const std::vector<int>& cpus)
{
    if (cpus.empty()) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) CPU_SET(c, &set);
    (void)sched_setaffinity(0, sizeof set, &set);  // a hint: runs anyway where it cannot hold
}

// In the child: into the run's cgroup before exec, so that everything it
// starts is counted and killed with it; a child that cannot join does not run.
void join_cgroup(const char* procs, int status_fd)
{
    const int fd = open(procs, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "0", 1) != 1) report_start_failure(status_fd);
    close(fd);
}

void set_limits(const ProcessSpec& spec)
{
    const rlimit no_core {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (spec.file_size_limit_bytes > 0) {
        const rlimit fsize {spec.file_size_limit_bytes, spec.file_size_limit_bytes};
        setrlimit(RLIMIT_FSIZE, &fsize);
    }
}

// Child: own process group (so that the whole group can be killed),
// stdout/stderr to the pipes, the passed descriptors kept open.
[[noreturn]] void exec_child(const ProcessSpec& spec, const Pipes& pipes, const std::vector<char*>& argv,
                             const std::string& cwd)
{
    setpgid(0, 0);
    dup2(pipes.out.w, 1);
    dup2(pipes.err.w, 2);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    for (int fd : spec.pass_fds) {
        const int flags = fcntl(fd, F_GETFD);
        if (flags >= 0) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    for (const auto& [name, value] : spec.set_env) setenv(name.c_str(), value.c_str(), 1);
    signal(SIGPIPE, SIG_DFL);  // hpclab ignores it (gate.cpp); the program gets the default
    pin_to_cpus(spec.cpus);
    set_limits(spec);
    if (!spec.cgroup_procs.empty()) join_cgroup(spec.cgroup_procs.c_str(), pipes.status.w);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) report_start_failure(pipes.status.w);
    execv(argv[0], argv.data());
    report_start_failure(pipes.status.w);
}

// In the parent, right after the fork: the child's ends of the pipes closed,
// then whether exec worked (the status pipe closes with nothing in it). When
// it did not, the child is reaped and `res` says why.
bool exec_worked(const ProcessSpec& spec, pid_t pid, Pipes& pipes, ProcessResult& res)
{
    setpgid(pid, pid);  // also from here, so that it holds before any kill
    for (Pipe* p : {&pipes.out, &pipes.err, &pipes.status}) {
        if (p->w >= 0) close(p->w);
        p->w = -1;
    }
    int exec_errno = 0;
    const ssize_t got = read(pipes.status.r, &exec_errno, sizeof exec_errno);
    close(pipes.status.r);
    pipes.status.r = -1;
    if (got != static_cast<ssize_t>(sizeof exec_errno)) return true;
    waitpid(pid, nullptr, 0);
    record_start_error(res, pipes, "cannot start " + spec.argv[0] + ": " + std::strerror(exec_errno));
    return false;
}

// The parent's side while the program runs: its output read as it comes,
// the wall limit (held at a gate) and `cancel` watched, and the process
// group killed and reaped.
class Watch {
public:
    using Clock = std::chrono::steady_clock;

    Watch(const ProcessSpec& spec, pid_t pid, const Pipes& pipes, ProcessResult& res, Clock::time_point t0)
        : spec_(spec), pid_(pid), out_(pipes.out.r), err_(pipes.err.r), res_(res), t0_(t0), tagger_(spec.tag_prefix),
          limit_(duration_of(spec.wall_limit_s)),
          // Until the first restart line, the start-up's limit if it is longer.
          deadline_(t0 + (spec.limit_restart_tags.empty() ? limit_ : std::max(limit_, duration_of(spec.startup_limit_s))))
    {
    }

    // Until the program is gone and both pipes are at end of file; the
    // program's wait status.
    int run()
    {
        while (!(out_eof_ && err_eof_ && exited_)) {
            reap_if_exited();
            const auto now = Clock::now();
            kill_past_limit(now);
            reap_after_kill(now);
            if (out_eof_ && err_eof_) {
                if (!exited_) poll(nullptr, 0, 5);
                continue;
            }
            // Its orphans may hold its output open: they end with it.
            if (exited_) end_orphans();
            if (!read_output()) break;
        }
        return wstatus_;
    }

private:
    static Clock::duration duration_of(double seconds)
    {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    void reap_if_exited()
    {
        if (exited_ || killed_) return;
        if (waitpid(pid_, &wstatus_, WNOHANG) != pid_) return;
        exited_ = true;
        // Whatever it started must not outlive it (an orphan can hold
        // the GPU); the pipes then reach end of file.
        kill(-pid_, SIGKILL);
        if (spec_.after_exit) spec_.after_exit();
    }

    void kill_past_limit(Clock::time_point now)
    {
        if (spec_.held && spec_.held->load())
            deadline_ = now + (lingering_ ? duration_of(spec_.linger_limit_s) : limit_);
        if (!dismissed_ && spec_.dismissed && spec_.dismissed->load()) {
            dismissed_ = true;
            deadline_ = std::min(deadline_, now + duration_of(spec_.dismissed_limit_s));
        }
        const bool cancel = spec_.cancel && spec_.cancel->load();
        if (exited_ || killed_ || !(now >= deadline_ || cancel)) return;
        (cancel ? res_.cancelled : res_.timed_out) = true;
        res_.lingered = !cancel && lingering_;
        kill(-pid_, SIGKILL);
        killed_ = true;
        kill_time_ = now;
    }

    // A process inside a kernel can take a while to die (the driver
    // tears its context down): wait for it, but not forever.
    void reap_after_kill(Clock::time_point now)
    {
        if (exited_ || !killed_) return;
        if (waitpid(pid_, &wstatus_, WNOHANG) == pid_) {
            exited_ = true;
        } else if (now - kill_time_ > std::chrono::seconds(20)) {
            res_.unkillable = true;
            exited_ = true;
        }
    }

    // What the pipes have, read into the result; false once the group is
    // dead and the pipes stay quiet: then there is nothing more to wait for.
    bool read_output()
    {
        pollfd fds[2];
        int nfds = 0;
        if (!out_eof_) fds[nfds++] = {out_, POLLIN, 0};
        if (!err_eof_) fds[nfds++] = {err_, POLLIN, 0};
        const int timeout_ms = exited_ ? 200 : 20;
        const int ready = poll(fds, nfds, timeout_ms);
        if (ready == 0 && exited_) return false;
        for (int i = 0; i < nfds; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (fds[i].fd == out_) {
                const auto got = drain(out_, buf_, res_.out, res_.out_truncated, spec_.output_limit, out_eof_);
                const std::size_t seen = res_.tagged.size();
                tagger_.feed(got, std::chrono::duration<double>(Clock::now() - t0_).count(), res_.tagged);
                watch_tags(seen);
            } else {
                drain(err_, buf_, res_.err, res_.err_truncated, spec_.output_limit, err_eof_);
            }
        }
        return true;
    }

    // The tags read since `from`: the GPU ready for an exchange restarts the wall limit; the
    // last of done_tags leaves the program linger_limit_s to end.
    void watch_tags(std::size_t from)
    {
        if (killed_) return;
        for (std::size_t i = from; i < res_.tagged.size(); ++i) {
            const std::string& text = res_.tagged[i].text;
            if (restarts_seen_ < spec_.limit_restart_tags.size() && text == spec_.limit_restart_tags[restarts_seen_]) {
                ++restarts_seen_;
                deadline_ = Clock::now() + limit_;
                if (restarts_seen_ == 1 && spec_.on_first_restart) spec_.on_first_restart();
            }
            if (done_seen_ < spec_.done_tags.size() && text == spec_.done_tags[done_seen_] &&
                ++done_seen_ == spec_.done_tags.size()) {
                lingering_ = true;
                deadline_ = std::min(deadline_, Clock::now() + duration_of(spec_.linger_limit_s));
            }
        }
    }

    const ProcessSpec& spec_;
    const pid_t pid_;
    const int out_, err_;  // the read ends of the program's stdout and stderr
    ProcessResult& res_;
    const Clock::time_point t0_;
    LineTagger tagger_;
    char buf_[65536];
    const Clock::duration limit_;
    Clock::time_point deadline_;
    bool out_eof_ = false, err_eof_ = false, exited_ = false, killed_ = false;
    std::size_t done_seen_ = 0;      // of spec_.done_tags, read in order
    std::size_t restarts_seen_ = 0;  // of spec_.limit_restart_tags, read in order
    bool lingering_ = false;     // all of them read: the deadline is the linger limit's
    bool dismissed_ = false;     // spec_.dismissed was seen: the deadline is at most its limit's
    Clock::time_point kill_time_;
    int wstatus_ = 0;
};

void record_how_it_ended(int wstatus, bool sandboxed, ProcessResult& res)
{
    if (res.timed_out || res.cancelled) return;
    if (WIFEXITED(wstatus)) res.exit_code = WEXITSTATUS(wstatus);
    else if (WIFSIGNALED(wstatus)) res.signal = WTERMSIG(wstatus);
    // Inside a sandbox the program is bwrap's child: bwrap exits with 128 +
    // the signal that ended it.
    if (sandboxed && res.signal == 0 && res.exit_code > 128 && res.exit_code < 160) {
        res.signal = res.exit_code - 128;
        res.exit_code = -1;
    }
    res.file_size_limit = res.signal == SIGXFSZ;
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

// A child's line on the timeline: its program, what kind of call it is
// (nvcc's -c, a sanitizer's tool) and its last argument, by their last part:
// "nvcc -c ... matmul-check.o", "compute-sanitizer racecheck ... matmul-check".
std::string process_label(const std::vector<std::string>& argv)
{
    if (argv.empty()) return "?";
    const auto last_part = [](const std::string& a) { return std::filesystem::path(a).filename().string(); };
    std::string label = last_part(argv[0]);
    for (std::size_t i = 1; i < argv.size(); ++i) {
        if (argv[i] == "-c") label += " -c";
        if (argv[i] == "--tool" && i + 1 < argv.size()) label += " " + argv[i + 1];
    }
    if (argv.size() > 1) label += " ... " + last_part(argv.back());
    return label;
}

ProcessResult run_process(const ProcessSpec& spec)
{
    ProcessResult res;
    Pipes pipes;
    if (!pipes.open()) {
        record_start_error(res, pipes, std::string("cannot create pipes: ") + std::strerror(errno));
        return res;
    }
    ProcessSpec inside;  // the command wrapped in its sandbox, when it has one
    if (spec.sandbox) {
        inside = spec;
        inside.argv = sandboxed_argv(*spec.sandbox, spec.argv);
    }
    const ProcessSpec& to_run = spec.sandbox ? inside : spec;
    const std::vector<char*> argv = exec_argv(to_run);
    const std::string cwd = spec.cwd.string();

    const auto t0 = std::chrono::steady_clock::now();
    const double timeline_start = timeline_clock();
    const pid_t pid = fork_program();
    if (pid < 0) {
        record_start_error(res, pipes, std::string("fork failed: ") + std::strerror(errno));
        return res;
    }
    if (pid == 0) exec_child(to_run, pipes, argv, cwd);
    if (!exec_worked(to_run, pid, pipes, res)) {
        forget_child(pid);
        return res;
    }
    res.started = true;
    if (spec.after_start) spec.after_start();

    const int wstatus = Watch(spec, pid, pipes, res, t0).run();
    forget_child(pid);
    end_orphans();
    pipes.out.close_all();
    pipes.err.close_all();
    res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    record_how_it_ended(wstatus, spec.sandbox.has_value(), res);
    if (res.signal != 0 || res.timed_out || res.cancelled || res.unkillable) stopped_programs.fetch_add(1);
    timeline_note(timeline_start, process_label(spec.argv));
    return res;
}

std::uint64_t programs_stopped() { return stopped_programs.load(); }

}  // namespace hpclab
