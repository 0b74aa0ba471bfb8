// ZIP archives made by the tests themselves (with the vendored miniz), and
// the byte-level changes a hostile archive makes to them: a link's mode, a
// size that lies, a name no writer would write.
#pragma once

#include <miniz.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hpclab::test {

using ZipFiles = std::vector<std::pair<std::string, std::string>>;  // name, bytes ("name/" with no bytes: a folder)

inline void make_zip(const std::filesystem::path& file, const ZipFiles& entries)
{
    mz_zip_archive zip {};
    if (!mz_zip_writer_init_file(&zip, file.c_str(), 0)) throw std::runtime_error("cannot start " + file.string());
    for (const auto& [name, bytes] : entries)
        if (!mz_zip_writer_add_mem(&zip, name.c_str(), bytes.data(), bytes.size(), MZ_DEFAULT_COMPRESSION))
            throw std::runtime_error("cannot add " + name);
    mz_zip_writer_finalize_archive(&zip);
    mz_zip_writer_end(&zip);
}

inline std::string file_bytes(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void put_le(std::string& bytes, std::size_t at, std::uint32_t value, int width)
{
    for (int i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

// Changes the central directory's record of `name`: `edit(bytes, offset)`.
template <class Edit> void edit_central_record(const std::filesystem::path& file, const std::string& name, Edit edit)
{
    std::string bytes = file_bytes(file);
    for (std::size_t at = bytes.find("PK\x01\x02"); at != std::string::npos; at = bytes.find("PK\x01\x02", at + 4)) {
        const auto len = static_cast<unsigned char>(bytes[at + 28]) | (static_cast<unsigned char>(bytes[at + 29]) << 8);
        if (bytes.compare(at + 46, len, name) == 0) edit(bytes, at);
    }
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// The entry as a Unix tool records a file of mode `mode` (S_IFLNK | 0777: a link).
inline void set_unix_mode(const std::filesystem::path& file, const std::string& name, std::uint32_t mode)
{
    edit_central_record(file, name, [&](std::string& b, std::size_t at) {
        put_le(b, at + 4, (3u << 8) | 20u, 2);
        put_le(b, at + 38, mode << 16, 4);
    });
}

inline void set_declared_size(const std::filesystem::path& file, const std::string& name, std::uint32_t size)
{
    edit_central_record(file, name, [&](std::string& b, std::size_t at) { put_le(b, at + 24, size, 4); });
}

// Every `from` in the archive's bytes (its names, local and central) made `to`, of the same length.
inline void rename_in_place(const std::filesystem::path& file, const std::string& from, const std::string& to)
{
    std::string bytes = file_bytes(file);
    for (std::size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + 1)) bytes.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace hpclab::test
