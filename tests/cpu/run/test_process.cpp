// Running a child program: output captured and bounded, exit status and
// signals told apart, the wall limit enforced, nothing left running.
#include "gpu/gpu_probe.h"
#include "process/process.h"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <sched.h>
#include <sys/prctl.h>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace hpclab;

namespace {
ProcessResult sh(const std::string& script, double limit = 10, std::size_t output_limit = 1 << 20)
{
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.wall_limit_s = limit;
    spec.output_limit = output_limit;
    return run_process(spec);
}
}  // namespace

TEST_CASE("process: output and exit status")
{
    const ProcessResult r = sh("echo out; echo err >&2; exit 3");
    CHECK(r.started);
    CHECK(r.exited());
    CHECK(r.exit_code == 3);
    CHECK(r.out == "out\n");
    CHECK(r.err == "err\n");
}

TEST_CASE("process: a signal is reported as such")
{
    const ProcessResult r = sh("kill -SEGV $$");
    CHECK(r.signal == SIGSEGV);
    CHECK_FALSE(r.exited());
    CHECK(describe_signal(r.signal) == "segmentation fault (SIGSEGV)");
}

TEST_CASE("process: the wall limit kills the whole process group")
{
    const ProcessResult r = sh("sleep 30 & sleep 30", 0.5);
    CHECK(r.timed_out);
    CHECK(r.wall_s < 5);
}

TEST_CASE("process: a child that leaves a background process behind does not hold the parent")
{
    const ProcessResult r = sh("sleep 30 & echo started", 20);
    CHECK(r.exited());
    CHECK(r.out == "started\n");
    CHECK(r.wall_s < 5);
}

TEST_CASE("process: output past the limit is cut and said so")
{
    const ProcessResult r = sh("yes | head -c 100000", 10, 1000);
    CHECK(r.exited());
    CHECK(r.out.size() == 1000);
    CHECK(r.out_truncated);
}

TEST_CASE("process: a program that cannot start says why")
{
    ProcessSpec spec;
    spec.argv = {"/nonexistent/program"};
    const ProcessResult r = run_process(spec);
    CHECK_FALSE(r.started);
    CHECK(r.start_error.find("No such file") != std::string::npos);
}

TEST_CASE("process: environment variables reach the child, empty ones too")
{
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo \"[${HPCLAB_X-unset}][${HPCLAB_Y-unset}]\""};
    spec.set_env = {{"HPCLAB_X", "1"}, {"HPCLAB_Y", ""}};
    CHECK(run_process(spec).out == "[1][]\n");
}

TEST_CASE("process: a cancel flag stops the whole group at once")
{
    std::atomic<bool> cancel {false};
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "sleep 30 & sleep 30"};
    spec.wall_limit_s = 20;
    spec.cancel = &cancel;
    std::thread flip([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    const ProcessResult r = run_process(spec);
    flip.join();
    CHECK(r.cancelled);
    CHECK_FALSE(r.timed_out);
    CHECK_FALSE(r.exited());
    CHECK(r.wall_s < 5);
}

TEST_CASE("process: a program pinned to CPUs runs on those only")
{
    cpu_set_t mine;
    CPU_ZERO(&mine);
    REQUIRE(sched_getaffinity(0, sizeof mine, &mine) == 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
        if (CPU_ISSET(c, &mine)) first = c;
    REQUIRE(first >= 0);
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "grep '^Cpus_allowed_list' /proc/self/status"};
    spec.cpus = {first};
    const ProcessResult r = run_process(spec);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "Cpus_allowed_list:\t" + std::to_string(first) + "\n");
}

namespace {

// A child of this process that starts a grandchild (named `child_name`
// when given), both paused until killed.
struct Family {
    pid_t child = 0, grandchild = 0;
    ~Family()
    {
        if (grandchild > 0) ::kill(grandchild, SIGKILL);  // never 0: that is the whole process group
        if (child <= 0) return;
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
    }
};

void start_family(Family& f, const char* child_name = nullptr)
{
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    f.child = ::fork();
    REQUIRE(f.child >= 0);
    if (f.child == 0) {
        if (child_name) ::prctl(PR_SET_NAME, child_name);
        const pid_t grandchild = ::fork();
        if (grandchild == 0) {
            ::pause();
            ::_exit(0);
        }
        [[maybe_unused]] const auto n = ::write(fds[1], &grandchild, sizeof grandchild);
        ::pause();
        ::_exit(0);
    }
    REQUIRE(::read(fds[0], &f.grandchild, sizeof f.grandchild) == sizeof f.grandchild);
    ::close(fds[0]);
    ::close(fds[1]);
}

}  // namespace

TEST_CASE("process: hpclab's own programs are its descendants, others are not")
{
    // A child that starts a grandchild, as compute-sanitizer starts a lab
    // program: both are ours, and do not make a timing unreliable.
    Family family;
    start_family(family);
    const pid_t child = family.child, grandchild = family.grandchild;
    CHECK(hpclab::is_own_descendant(static_cast<int>(child)));
    CHECK(hpclab::is_own_descendant(static_cast<int>(grandchild)));
    CHECK_FALSE(hpclab::is_own_descendant(static_cast<int>(::getpid())));  // this process itself is not
    CHECK_FALSE(hpclab::is_own_descendant(static_cast<int>(::getppid())));
    CHECK_FALSE(hpclab::is_own_descendant(1));
    CHECK_FALSE(hpclab::is_own_descendant(999999999));
}

TEST_CASE("process: another hpclab's programs are told apart from this one's and from anyone else's")
{
    // B forks C and ends: C, orphaned, is no longer this process's. C names
    // itself hpclab and forks G: G is another hpclab's program.
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t b = ::fork();
    REQUIRE(b >= 0);
    if (b == 0) {
        if (::fork() == 0) {
            ::prctl(PR_SET_NAME, "hpclab");
            const pid_t g = ::fork();
            if (g == 0) {
                ::pause();
                ::_exit(0);
            }
            const pid_t pair[2] = {::getpid(), g};
            [[maybe_unused]] const auto n = ::write(fds[1], pair, sizeof pair);
            ::pause();
            ::_exit(0);
        }
        ::_exit(0);
    }
    ::waitpid(b, nullptr, 0);
    pid_t pair[2] = {0, 0};
    REQUIRE(::read(fds[0], pair, sizeof pair) == sizeof pair);
    ::close(fds[0]);
    ::close(fds[1]);
    const auto [c, g] = std::pair(pair[0], pair[1]);
    // A subreaper (this process, when the runner made it one) takes C back: then both are its own.
    const bool reaped_here = hpclab::ancestry_of(static_cast<int>(c)) == hpclab::Ancestry::own;
    CHECK(hpclab::ancestry_of(static_cast<int>(g)) ==
          (reaped_here ? hpclab::Ancestry::own : hpclab::Ancestry::other_hpclab));
    if (!reaped_here) CHECK(hpclab::ancestry_of(static_cast<int>(c)) == hpclab::Ancestry::other);
    CHECK(hpclab::ancestry_of(1) == hpclab::Ancestry::other);

    ::kill(g, SIGKILL);
    ::kill(c, SIGKILL);
    // Ended and reaped: NVML may still list it a moment; it is nobody's now.
    if (reaped_here) {
        ::waitpid(c, nullptr, 0);
        CHECK(hpclab::ancestry_of(static_cast<int>(c)) == hpclab::Ancestry::gone);
    }

    // Below this process, a process that names itself hpclab (a student's
    // program hiding its child) does not make that child another's.
    Family family;
    start_family(family, "hpclab");
    CHECK(hpclab::ancestry_of(static_cast<int>(family.grandchild)) == hpclab::Ancestry::own);
}
