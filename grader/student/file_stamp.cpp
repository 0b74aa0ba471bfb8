#include "student/file_stamp.h"

#include <sys/stat.h>

namespace hpclab {

FileStamp stamp_of(const std::filesystem::path& file)
{
    struct stat st {};
    FileStamp s;
    if (::stat(file.c_str(), &st) != 0) return s;
    s.exists = true;
    s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    s.size = static_cast<std::int64_t>(st.st_size);
    s.inode = static_cast<std::uint64_t>(st.st_ino);
    return s;
}

SaveDetector::SaveDetector(std::filesystem::path file, std::chrono::milliseconds settle)
    : file_(std::move(file)), settle_(settle)
{
}

void SaveDetector::handled(const FileStamp& stamp)
{
    handled_ = stamp;
    seen_ = stamp;
    seen_since_ = Clock::now();
}

bool SaveDetector::saved(Clock::time_point now)
{
    const FileStamp s = stamp_of(file_);
    if (s != seen_) {
        seen_ = s;
        seen_since_ = now;  // still changing: the settle time starts again
    }
    return seen_ != handled_ && now - seen_since_ >= settle_;
}

}  // namespace hpclab
