#include "grade/grade_folder.h"

#include "util/proc_stat.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path GradeFolder::result_file(const std::string& student, const std::string& lab) const
{
    return root_ / "results" / student / (lab + ".json");
}

fs::path GradeFolder::student_dir(const std::string& student) const { return root_ / "students" / student; }

fs::path GradeFolder::chunk_dir(int chunk) const { return root_ / "chunks" / std::to_string(chunk); }

std::optional<LabResult> GradeFolder::load(const std::string& student, const std::string& lab) const
{
    const auto text = read_text_file(result_file(student, lab));
    if (!text) return std::nullopt;
    try {
        LabResult r = lab_result_from_json(json::parse(*text));
        if (r.student != student || r.lab != lab) return std::nullopt;
        return r;
    } catch (const std::exception&) {
        return std::nullopt;  // not a result (never written half: someone else's file): graded again
    }
}

void GradeFolder::save(const LabResult& r) const
{
    write_file_atomically(result_file(r.student, r.lab),
                          to_json(r).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

std::vector<LabResult> GradeFolder::all_results(std::vector<std::string>* unreadable) const
{
    std::vector<LabResult> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root_ / "results", ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file() || it->path().extension() != ".json" || it->path().filename().string()[0] == '.')
            continue;
        const auto r = load(it->path().parent_path().filename().string(), it->path().stem().string());
        if (r) out.push_back(*r);
        else if (unreadable) unreadable->push_back(fs::relative(it->path(), root_).string());
    }
    std::sort(out.begin(), out.end(), [](const LabResult& a, const LabResult& b) {
        return std::tie(a.student, a.lab) < std::tie(b.student, b.lab);
    });
    return out;
}

namespace {

std::string this_host()
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

// Whether the grader that wrote `holder` ("pid N on host") on this machine
// has ended or is ending: no such process, a zombie, or SIGKILL pending. A
// grader killed a moment ago (kill -9, then the same command at once) keeps
// its lock until its last thread has ended, which on a busy GPU (its NVML
// handles, hundreds of contexts ending beside it) takes a moment.
bool holder_has_ended(const std::string& holder)
{
    int pid = 0;
    char host[256] = {};
    if (std::sscanf(holder.c_str(), "pid %d on %255s", &pid, host) != 2 || pid <= 0 || host != this_host()) return false;
    const auto stat = proc_stat(pid);
    if (!stat || stat->state == 'Z' || stat->state == 'X') return true;
    const auto status = read_text_file("/proc/" + std::to_string(pid) + "/status").value_or("");
    for (const char* field : {"\nShdPnd:\t", "\nSigPnd:\t"}) {
        const auto at = status.find(field);
        if (at == std::string::npos) continue;
        const unsigned long long pending = std::strtoull(status.c_str() + at + std::strlen(field), nullptr, 16);
        if (pending & (1ull << (SIGKILL - 1))) return true;
    }
    return false;
}

}  // namespace

FolderLock::FolderLock(const fs::path& folder, double ended_holder_wait_s)
{
    std::error_code ec;
    fs::create_directories(folder, ec);
    const fs::path file = folder / ".hpclab-grade.lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw std::runtime_error(fmt::format("{}: cannot write into this folder: {}", folder.string(), std::strerror(errno)));
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(ended_holder_wait_s);
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const std::string holder = read_text_file(file).value_or("");
        const bool ended = holder_has_ended(holder);
        if (!ended || std::chrono::steady_clock::now() >= until) {
            ::close(fd_);
            fd_ = -1;
            const std::string who = holder.substr(0, holder.find('\n'));
            throw std::runtime_error(fmt::format(
                "{}: another hpclab grade is writing this folder{}; wait for it to end, or grade into another folder",
                folder.string(),
                who.empty() ? "" : ended ? " (" + who + ", which has ended: a process it started may still hold it)"
                                         : " (" + who + ")"));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const std::string me = fmt::format("pid {} on {}\n", getpid(), this_host());
    if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, me.data(), me.size(), 0);
}

FolderLock::~FolderLock()
{
    if (fd_ >= 0) ::close(fd_);  // closing drops the lock
}

}  // namespace hpclab
