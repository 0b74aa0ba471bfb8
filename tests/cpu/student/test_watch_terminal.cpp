// hpclab watch in a terminal (a pseudo-terminal here): single keys without
// Enter, and the terminal put back as it was when watch ends, by q or by a
// signal.
#include "mini_course.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string_view>

extern char** environ;

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::MiniCourse;

namespace {

// hpclab watch with a pseudo-terminal as its controlling terminal, standard
// input and output. The test holds the terminal's other side too, to look at
// its mode.
class WatchInTerminal {
public:
    WatchInTerminal(const MiniCourse& course, const std::string& lab)
    {
        master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        REQUIRE(master_ >= 0);
        REQUIRE(grantpt(master_) == 0);
        REQUIRE(unlockpt(master_) == 0);
        const std::string name = ptsname(master_);
        terminal_ = open(name.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
        REQUIRE(terminal_ >= 0);
        // Everything the child needs, made before fork().
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e)
            if (std::string_view(*e).rfind("HPCLAB_ROOT=", 0) != 0 &&
                std::string_view(*e).rfind("CUDA_VISIBLE_DEVICES=", 0) != 0)
                env.emplace_back(*e);
        env.push_back("HPCLAB_ROOT=" + course.root().string());
        env.push_back("CUDA_VISIBLE_DEVICES=");
        std::vector<char*> envp;
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        std::string exe = HPCLAB_EXE, cmd = "watch", lab_arg = lab;
        char* argv[] = {exe.data(), cmd.data(), lab_arg.data(), nullptr};
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            setsid();
            const int tty = open(name.c_str(), O_RDWR);  // the new session's controlling terminal
            if (tty < 0) _exit(126);
            ioctl(tty, TIOCSCTTY, 0);
            dup2(tty, 0);
            dup2(tty, 1);
            dup2(tty, 2);
            execve(argv[0], argv, envp.data());
            _exit(127);
        }
    }

    ~WatchInTerminal()
    {
        if (pid_ > 0 && !ended_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(master_);
        close(terminal_);
    }

    // Reads what watch printed until `text` appears (true) or `seconds` pass.
    bool read_until(const std::string& text, double seconds = 60)
    {
        using namespace std::chrono;
        const auto end = steady_clock::now() + duration<double>(seconds);
        while (!contains(output, text)) {
            const auto left = duration_cast<milliseconds>(end - steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p {master_, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
            char buf[4096];
            const ssize_t n = read(master_, buf, sizeof buf);
            if (n <= 0) return contains(output, text);
            output.append(buf, static_cast<std::size_t>(n));
        }
        return true;
    }

    void type(const std::string& keys) { REQUIRE(write(master_, keys.data(), keys.size()) == ssize_t(keys.size())); }

    bool line_mode() const
    {
        termios t {};
        REQUIRE(tcgetattr(terminal_, &t) == 0);
        return (t.c_lflag & ICANON) && (t.c_lflag & ECHO);
    }

    // Waits for the end of watch (at most 30 s); its wait status.
    int wait_end()
    {
        for (int i = 0; i < 300; ++i) {
            read_until("\x01never", 0.1);  // keeps the terminal drained meanwhile
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                ended_ = true;
                return status;
            }
        }
        FAIL("watch did not end");
        return -1;
    }

    pid_t pid() const { return pid_; }
    std::string output;

private:
    int master_ = -1, terminal_ = -1;
    pid_t pid_ = -1;
    bool ended_ = false;
};

}  // namespace

TEST_CASE("watch terminal: keys work without Enter, and q puts the terminal back as it was")
{
    MiniCourse course;
    WatchInTerminal watch(course, "alpha");
    REQUIRE_MESSAGE(watch.read_until("Watching labs/alpha/alpha.cu"), watch.output);
    CHECK(contains(watch.output, "keys: h hint"));
    CHECK_FALSE(watch.line_mode());  // keys as they are pressed, no echo
    watch.type("h");
    CHECK_MESSAGE(watch.read_until("Hint 1 of 3 for alpha:"), watch.output);
    watch.type("n");
    CHECK_MESSAGE(watch.read_until("Lab 2 of 3: beta"), watch.output);
    watch.type("q");
    const int status = watch.wait_end();
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(watch.line_mode());
}

TEST_CASE("watch terminal: SIGTERM and SIGINT end watch and put the terminal back")
{
    for (const int sig : {SIGTERM, SIGINT}) {
        CAPTURE(sig);
        MiniCourse course;
        WatchInTerminal watch(course, "alpha");
        REQUIRE_MESSAGE(watch.read_until("Watching labs/alpha/alpha.cu"), watch.output);
        CHECK_FALSE(watch.line_mode());
        kill(watch.pid(), sig);
        const int status = watch.wait_end();
        CHECK(WIFSIGNALED(status));
        if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
        CHECK(watch.line_mode());
    }
}
