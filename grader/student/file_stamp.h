// Noticing that a file was saved, without a notification API: its
// modification time, size and inode, looked at often. Editors write a file in
// several steps (truncate, write, rename), so a save counts only once the
// file has stopped changing for a while.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>

namespace hpclab {

struct FileStamp {
    bool exists = false;
    std::int64_t mtime_ns = 0;
    std::int64_t size = 0;
    std::uint64_t inode = 0;  // a save that replaces the file by a rename
    bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const std::filesystem::path& file);

class SaveDetector {
public:
    using Clock = std::chrono::steady_clock;

    SaveDetector(std::filesystem::path file, std::chrono::milliseconds settle);

    // The file as it is now has been dealt with (checked, or reported missing).
    void handled(const FileStamp& stamp);
    // Looks at the file: true when it differs from what was handled and has
    // not changed for the settle time. Then `current()` is what to handle.
    bool saved(Clock::time_point now);
    // A change was seen and is settling: look again soon, not at the usual pace.
    bool settling() const { return seen_ != handled_; }
    const FileStamp& current() const { return seen_; }

private:
    std::filesystem::path file_;
    std::chrono::milliseconds settle_;
    FileStamp handled_, seen_;
    Clock::time_point seen_since_ {};
};

}  // namespace hpclab
