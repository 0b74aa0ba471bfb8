#include "process/cgroup.h"

#include "process/orphans.h"

#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

bool write_file(const fs::path& p, const std::string& text)
{
    std::ofstream out(p);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

bool lists(const std::string& words, const std::string& word)
{
    for (const auto& w : split(replace_all(words, "\n", " "), ' '))
        if (w == word) return true;
    return false;
}

// A counter from a flat-keyed file (memory.events: "oom_kill 1").
std::uint64_t counter(const fs::path& file, const std::string& key)
{
    for (const auto& line : split(read_text_file(file).value_or(""), '\n')) {
        const auto words = split(line, ' ');
        if (words.size() == 2 && words[0] == key) return std::strtoull(words[1].c_str(), nullptr, 10);
    }
    return 0;
}

// Whether a process can move into a scope under `dir` (the rights to the
// common ancestor's cgroup.procs, a delegation boundary): tried once with a
// child that does nothing else, so that a machine where it cannot runs
// without scopes rather than with runs that cannot start.
bool can_join(const fs::path& dir)
{
    const fs::path probe = dir / "probe";
    std::error_code ec;
    if (!fs::create_directory(probe, ec)) return false;
    const std::string procs = (probe / "cgroup.procs").string();
    const pid_t pid = fork_program();  // known to hpclab's sweep of orphans
    if (pid == 0) {
        const int fd = open(procs.c_str(), O_WRONLY | O_CREAT, 0644);  // (O_CREAT: a test's fake tree)
        _exit(fd >= 0 && write(fd, "0", 1) == 1 ? 0 : 1);
    }
    int status = 1;
    if (pid > 0) {
        waitpid(pid, &status, 0);
        forget_child(pid);
    }
    fs::remove(probe, ec);
    return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// hpclab's own folder of scopes under `parent`, with both controllers for them.
std::optional<fs::path> make_scopes_folder(const fs::path& parent)
{
    const fs::path dir = parent / fmt::format("hpclab-{}", getpid());
    std::error_code ec;
    fs::create_directory(dir, ec);
    if (!ec && write_file(dir / "cgroup.subtree_control", "+memory +pids") && can_join(dir)) return dir;
    fs::remove(dir, ec);
    return std::nullopt;
}

}  // namespace

CgroupBase find_cgroup_base(const fs::path& cgroup_root, const std::string& own)
{
    if (const char* given = std::getenv("HPCLAB_CGROUP"); given && *given) {
        if (auto dir = make_scopes_folder(given)) return {dir, ""};
        return {std::nullopt, fmt::format("HPCLAB_CGROUP={} cannot hold hpclab's scopes", given)};
    }
    if (!fs::exists(cgroup_root / "cgroup.controllers")) return {std::nullopt, "no cgroup v2 here"};
    // From the own cgroup's parent up to the root: the first whose children
    // may have memory and pids, and where hpclab may make a folder.
    for (fs::path p = (cgroup_root / own.substr(own.find_first_not_of('/'))).parent_path();;
         p = p.parent_path()) {
        const std::string control = read_text_file(p / "cgroup.subtree_control").value_or("");
        if (lists(control, "memory") && lists(control, "pids"))
            if (auto dir = make_scopes_folder(p)) return {dir, ""};
        if (p == cgroup_root || p.string().size() <= cgroup_root.string().size()) break;
    }
    return {std::nullopt, "no cgroup of this process's with memory and pids controllers can be written"};
}

const CgroupBase& cgroup_base()
{
    static const CgroupBase base = [] {
        std::string own;
        for (const auto& line : split(read_text_file("/proc/self/cgroup").value_or(""), '\n'))
            if (line.rfind("0::", 0) == 0) own = line.substr(3);
        return own.empty() ? CgroupBase {std::nullopt, "no cgroup v2 here"} : find_cgroup_base("/sys/fs/cgroup", own);
    }();
    // The folder goes with hpclab (its scopes are gone by then: each run removes its own).
    static const struct Remove {
        ~Remove()
        {
            std::error_code ec;
            if (base.dir) fs::remove(*base.dir, ec);
        }
    } remove;
    return base;
}

RunCgroup::RunCgroup(const fs::path& base, const CgroupLimits& limits) : limits_(limits)
{
    static std::atomic<unsigned> runs {0};
    dir_ = base / fmt::format("run-{}", runs++);
    std::error_code ec;
    fs::create_directory(dir_, ec);
    ok_ = !ec && write_file(dir_ / "memory.max", std::to_string(limits.memory_bytes)) &&
          write_file(dir_ / "pids.max", std::to_string(limits.pids));
    if (ok_) write_file(dir_ / "memory.swap.max", "0");  // absent without swap accounting: no matter
}

void RunCgroup::kill_all()
{
    if (!ok_) return;
    write_file(dir_ / "cgroup.kill", "1");
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (counter(dir_ / "cgroup.events", "populated") != 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

std::string RunCgroup::limit_met() const
{
    if (!ok_) return "";
    if (counter(dir_ / "memory.events", "oom_kill") > 0)
        return fmt::format("the program used more than the {} GiB of host memory a run may have",
                           limits_.memory_bytes >> 30);
    if (counter(dir_ / "pids.events", "max") > 0)
        return fmt::format("the program tried to run more than {} processes and threads at once", limits_.pids);
    return "";
}

RunCgroup::~RunCgroup()
{
    if (!ok_) return;
    kill_all();
    std::error_code ec;
    fs::remove(dir_, ec);
}

std::unique_ptr<RunCgroup> contain(ProcessSpec& ps, const CgroupLimits& limits)
{
    if (!ps.sandbox || !cgroup_base().dir) return nullptr;
    auto scope = std::make_unique<RunCgroup>(*cgroup_base().dir, limits);
    if (scope->ok()) {
        ps.cgroup_procs = scope->procs_file();
        ps.after_exit = [s = scope.get()] { s->kill_all(); };
    }
    return scope;
}

}  // namespace hpclab
