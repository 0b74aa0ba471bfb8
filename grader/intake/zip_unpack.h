// An LMS's ZIP download unpacked into a folder of hpclab's own, as a hostile
// archive may be: every entry's name is checked before anything is written
// (no absolute path, no "..", no backslash, no control character: nothing
// lands outside the folder), links and device entries are refused, each
// entry's size and the sum of them are capped from the archive's own
// directory before a byte is inflated (and an entry that inflates to more
// than it declared fails, never filling the disk), and every entry is
// accounted for: written, or listed with the reason it was not.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hpclab {

struct ZipLimits {
    std::uint64_t entry_bytes = 64ull << 20;  // a larger entry is listed, not written
    std::uint64_t total_bytes = 2ull << 30;   // past this the archive is refused whole
    std::uint64_t entries = 100000;           // and past this many entries
};

struct ZipEntry {
    std::string name;                  // as the archive names it (escape it to print)
    std::filesystem::path written;     // relative to the folder; empty: not written
    std::string why;                   // when not written
    bool folder = false;
};

struct Unpacked {
    std::vector<ZipEntry> entries;  // in the archive's order
    std::size_t files_written() const;
};

// Unpacks `zip` into `folder` (created; it must not exist or be empty).
// Throws std::runtime_error naming the archive when it is not a ZIP, cannot
// be read, or is over the limits as a whole: nothing is written then.
Unpacked unpack_zip(const std::filesystem::path& zip, const std::filesystem::path& folder, const ZipLimits& limits = {});

// Whether `file` starts as a ZIP archive does ("PK\3\4", or "PK\5\6": empty).
bool looks_like_zip(const std::filesystem::path& file);

// Why an entry's name cannot be written as it is under a folder, or empty.
std::string unsafe_entry_name(const std::string& name);

}  // namespace hpclab
