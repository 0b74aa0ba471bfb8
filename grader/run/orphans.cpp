#include "run/orphans.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace hpclab {

namespace {

std::mutex g_mutex;
std::set<pid_t> g_programs;

// Hand-written: no library reads a process's parent; /proc/<pid>/stat's
// fourth field is it (after the name in parentheses, which may hold spaces).
pid_t parent_of(const std::filesystem::path& proc_dir)
{
    std::ifstream in(proc_dir / "stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    char state = 0;
    int ppid = -1;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2) return -1;
    return ppid;
}

std::vector<pid_t> orphans_locked()
{
    std::vector<pid_t> found;
    const pid_t self = getpid();
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const pid_t pid = std::atoi(name.c_str());
        if (parent_of(e.path()) == self && !g_programs.count(pid)) found.push_back(pid);
    }
    return found;
}

}  // namespace

pid_t fork_program()
{
    static const bool reaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
    (void)reaper;
    std::lock_guard lock(g_mutex);  // no sweep may see the child before it is known
    const pid_t pid = fork();
    if (pid > 0) g_programs.insert(pid);
    return pid;
}

void forget_child(pid_t pid)
{
    std::lock_guard lock(g_mutex);
    g_programs.erase(pid);
}

int end_orphans()
{
    std::vector<pid_t> orphans;
    {
        std::lock_guard lock(g_mutex);
        orphans = orphans_locked();
    }
    for (pid_t pid : orphans) kill(pid, SIGKILL);
    // Reaped: a killed child stays a zombie until its parent waits for it.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (pid_t pid : orphans)
        while (waitpid(pid, nullptr, WNOHANG) == 0 && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return static_cast<int>(orphans.size());
}

}  // namespace hpclab
