#include "grade/grade_folder.h"

#include "util/text_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

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

FolderLock::FolderLock(const fs::path& folder)
{
    std::error_code ec;
    fs::create_directories(folder, ec);
    const fs::path file = folder / ".hpclab-grade.lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw std::runtime_error(fmt::format("{}: cannot write into this folder: {}", folder.string(), std::strerror(errno)));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const std::string holder = read_text_file(file).value_or("");
        ::close(fd_);
        fd_ = -1;
        throw std::runtime_error(fmt::format(
            "{}: another hpclab grade is writing this folder{}; wait for it to end, or grade into another folder",
            folder.string(), holder.empty() ? "" : " (" + holder.substr(0, holder.find('\n')) + ")"));
    }
    const std::string me = fmt::format("pid {} on {}\n", getpid(), [] {
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        return std::string(host);
    }());
    if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, me.data(), me.size(), 0);
}

FolderLock::~FolderLock()
{
    if (fd_ >= 0) ::close(fd_);  // closing drops the lock
}

}  // namespace hpclab
