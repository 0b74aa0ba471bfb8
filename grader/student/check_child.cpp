#include "student/check_child.h"

#include "course/exit_status.h"
#include "process/orphans.h"
#include "process/process.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace hpclab {

namespace {

// Our environment with HPCLAB_ROOT set to the course folder: made before
// fork(), since the child may only make async-signal-safe calls before exec.
std::vector<std::string> child_environment(const std::filesystem::path& course_root)
{
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "HPCLAB_ROOT=", 12) != 0) env.emplace_back(*e);
    env.push_back("HPCLAB_ROOT=" + course_root.string());
    return env;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings)
{
    std::vector<char*> p;
    for (auto& s : strings) p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

}  // namespace

ChildStatus run_check_child(const std::filesystem::path& course_root, const std::string& lab)
{
    ChildStatus status;
    std::vector<std::string> args = {"hpclab", "check", lab};
    std::vector<std::string> env = child_environment(course_root);
    const std::vector<char*> argv = pointers_to(args);
    const std::vector<char*> envp = pointers_to(env);
    // What we printed must come out before what the child prints.
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork_program();  // known as hpclab's: no sweep for orphans ends it
    if (pid < 0) {
        status.start_error = std::strerror(errno);
        return status;
    }
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0) ::dup2(null, STDIN_FILENO);
        // This very program: the check comes from the same build as the watch.
        ::execve("/proc/self/exe", argv.data(), envp.data());
        const char msg[] = "hpclab watch: cannot start /proc/self/exe (hpclab check)\n";
        [[maybe_unused]] const auto ignored = ::write(STDERR_FILENO, msg, sizeof msg - 1);
        ::_exit(127);
    }
    int ws = 0;
    while (::waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR) {
            forget_child(pid);
            status.start_error = std::strerror(errno);
            return status;
        }
    forget_child(pid);
    status.started = true;
    if (WIFEXITED(ws)) status.exit_code = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws)) status.signal = WTERMSIG(ws);
    return status;
}

std::string describe(const ChildStatus& status)
{
    if (!status.started) return "could not start: " + status.start_error;
    if (status.signal) return "killed by " + describe_signal(status.signal);
    const char* meaning = "";
    switch (status.exit_code) {
    case kPass: meaning = " (passed)"; break;
    case kFail: meaning = " (a check failed)"; break;
    case kUsage: meaning = " (bad command line or input: nothing was checked)"; break;
    case kGraderError: meaning = " (hpclab itself failed)"; break;
    case kSkipped: meaning = " (no GPU: nothing was judged)"; break;
    default: break;
    }
    return fmt::format("exit status {}{}", status.exit_code, meaning);
}

}  // namespace hpclab
