// hpclab reset: the lab's file back to the course's skeleton (lab.json's skeleton_blob, or as committed in git),
// after a backup of the student's version that nothing ever overwrites.
#include "util/clock_text.h"
#include "util/text_file.h"
#include "commands.h"
#include "student/state_dir.h"
#include "student/committed_file.h"
#include "student/progress.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& p) { return read_text_file(p); }

std::string local_stamp() { return now_text("%Y%m%d-%H%M%S", Zone::local); }

bool write_all(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// A new file in `dir` named <id>-<YYYYMMDD-HHMMSS><ext> (then -2, -3, ... in
// the same second): O_EXCL creates it only if no file has that name, so an
// older backup is never replaced.
fs::path write_backup(const fs::path& dir, const LabInfo& lab, const std::string& content)
{
    fs::create_directories(dir);
    const std::string base = lab.id + "-" + local_stamp();
    const std::string ext = fs::path(lab.student_file).extension().string();
    for (int i = 1; i < 1000; ++i) {
        const fs::path name = dir / (base + (i == 1 ? "" : "-" + std::to_string(i)) + ext);
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", name.string(), std::strerror(errno)));
        const bool ok = write_all(fd, content) && ::fsync(fd) == 0;
        ::close(fd);
        if (!ok) throw std::runtime_error(fmt::format("cannot write {}", name.string()));
        return name;
    }
    throw std::runtime_error("too many backups in the same second in " + dir.string());
}

// Replaces `target` as a whole (a temporary file, then a rename): an editor
// or a watch that reads it sees the old file or the new one.
void replace_file(const fs::path& target, const std::string& content)
{
    fs::path tmp = target;
    tmp += ".hpclab-reset-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << content;
        if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    if (std::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        fs::remove(tmp);
        throw std::runtime_error(fmt::format("cannot replace {}: {}", target.string(), std::strerror(err)));
    }
}

}  // namespace

int cmd_reset(Context& ctx, const std::string& lab_id)
{
    const LabInfo& lab = ctx.lab(lab_id);
    const fs::path& root = ctx.catalog().root();
    const fs::path file = lab.student_source();
    const std::string shown = relative_to_root(ctx, file);
    bool from_course = false;
    const auto skeleton = course_skeleton(root, lab, from_course);
    if (!skeleton)
        throw UsageError(fmt::format("cannot reset {}: git has no committed version of {} in {} (not a git "
                                     "checkout, or git is not installed), so there is no skeleton to restore. "
                                     "Nothing was changed.",
                                     lab.id, shown, root.string()));

    const auto current = read_file(file);
    if (current == skeleton) {
        fmt::print("{} is already the skeleton: nothing to do.\n", shown);
        return kPass;
    }
    if (!current) {
        replace_file(file, *skeleton);
        fmt::print("{} was missing: restored the skeleton (there was nothing to back up).\n", shown);
        return kPass;
    }
    const fs::path backup = write_backup(state_dir(root) / "backups", lab, *current);
    replace_file(file, *skeleton);
    fmt::print("Your version of {} is saved as {}\n{} is the skeleton again, {}.\n", shown,
               relative_to_root(ctx, backup), shown,
               from_course ? "as the course ships it" : "as committed in git (this lab names no course skeleton)");
    return kPass;
}

}  // namespace hpclab::cli
