#include "process/orphans.h"

#include "util/proc_stat.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace hpclab {

namespace {

std::mutex g_mutex;
std::set<pid_t> g_programs;

std::vector<pid_t> orphans_locked()
{
    std::vector<pid_t> found;
    const pid_t self = getpid();
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const pid_t pid = std::atoi(name.c_str());
        const auto stat = proc_stat(pid);
        if (stat && stat->parent == self && !g_programs.count(pid)) found.push_back(pid);
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
