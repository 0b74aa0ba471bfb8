#include "intake/zip_unpack.h"

#include "util/escape.h"

#include <fmt/format.h>
#include <miniz.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

constexpr unsigned kUnixHost = 3;  // "version made by" high byte: the mode is in the external attributes

// The archive, closed however its reading ends.
struct ZipReader {
    mz_zip_archive zip {};
    bool open = false;
    ~ZipReader()
    {
        if (open) mz_zip_reader_end(&zip);
    }
};

std::string entry_name(mz_zip_archive& zip, mz_uint i)
{
    const mz_uint size = mz_zip_reader_get_filename(&zip, i, nullptr, 0);  // its length + 1
    std::string name(size, '\0');
    if (size > 0) mz_zip_reader_get_filename(&zip, i, name.data(), size);
    if (!name.empty()) name.pop_back();
    return name;
}

// Why an entry of this kind is not written (a link, a device), or empty.
std::string refused_kind(const mz_zip_archive_file_stat& st)
{
    if ((st.m_version_made_by >> 8) != kUnixHost) return "";
    switch ((st.m_external_attr >> 16) & S_IFMT) {
    case S_IFLNK: return "a symbolic link: hpclab writes none and follows none";
    case S_IFCHR: case S_IFBLK: return "a device: never written";
    case S_IFIFO: return "a FIFO (named pipe): never written";
    case S_IFSOCK: return "a socket: never written";
    default: return "";
    }
}

// Writes `bytes` as a new file (never through a link, never over a file).
std::string write_new_file(const fs::path& file, const void* bytes, std::size_t size)
{
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec) return "its folder cannot be made (" + ec.message() + "): a file of the archive has that folder's name?";
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return std::string("cannot be written: ") + std::strerror(errno);
    const char* p = static_cast<const char*>(bytes);
    std::size_t done = 0;
    for (ssize_t n; done < size && (n = ::write(fd, p + done, size - done)) > 0;) done += static_cast<std::size_t>(n);
    ::close(fd);
    return done == size ? "" : "could not be written whole (is the disk full?)";
}

struct Planned {
    mz_uint index;
    std::string name;
    std::uint64_t bytes;
    bool folder;
    std::string why;  // not written, and why
};

// Every entry with what will become of it, before anything is written.
std::vector<Planned> plan_entries(mz_zip_archive& zip, const std::string& shown, const ZipLimits& limits)
{
    const mz_uint n = mz_zip_reader_get_num_files(&zip);
    if (n > limits.entries)
        throw std::runtime_error(fmt::format("{}: {} entries, more than the {} hpclab unpacks", shown, n, limits.entries));
    std::vector<Planned> plan;
    std::set<std::string> names;
    std::uint64_t total = 0;
    for (mz_uint i = 0; i < n; ++i) {
        mz_zip_archive_file_stat st {};
        Planned p {i, entry_name(zip, i), 0, false, ""};
        if (!mz_zip_reader_file_stat(&zip, i, &st)) {
            p.why = "its record in the archive cannot be read";
            plan.push_back(p);
            continue;
        }
        p.folder = st.m_is_directory;
        p.bytes = st.m_uncomp_size;
        const std::string key = p.folder && !p.name.empty() ? p.name.substr(0, p.name.size() - 1) : p.name;
        if (const std::string why = unsafe_entry_name(key); !why.empty()) p.why = why;
        else if (const std::string kind = refused_kind(st); !kind.empty()) p.why = kind;
        else if (st.m_is_encrypted) p.why = "encrypted: hpclab reads no password-protected entry";
        else if (!p.folder && !st.m_is_supported) p.why = "compressed in a way hpclab does not read (not stored or deflate)";
        else if (!p.folder && p.bytes > limits.entry_bytes)
            p.why = fmt::format("too large ({:.1f} MiB; hpclab unpacks entries of at most {} MiB)", p.bytes / 1048576.0,
                                limits.entry_bytes >> 20);
        else if (!names.insert(key).second && !p.folder) p.why = "a second entry of the same name: the first is unpacked";
        else total += p.bytes;
        plan.push_back(p);
    }
    if (total > limits.total_bytes)
        throw std::runtime_error(fmt::format("{}: its entries add up to {:.1f} GiB, more than the {:.0f} GiB hpclab unpacks",
                                             shown, total / 1073741824.0, limits.total_bytes / 1073741824.0));
    return plan;
}

}  // namespace

std::size_t Unpacked::files_written() const
{
    std::size_t n = 0;
    for (const ZipEntry& e : entries) n += !e.folder && !e.written.empty();
    return n;
}

std::string unsafe_entry_name(const std::string& name)
{
    if (name.empty()) return "an empty name";
    if (name.size() > 4096) return "a name longer than a path may be";
    if (name.front() == '/') return "an absolute path: it would land outside the folder";
    if (name.find('\\') != std::string::npos) return "a backslash in its name: not a path hpclab can place safely";
    for (const char c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "a control character in its name";
    std::size_t begin = 0;
    while (begin <= name.size()) {
        const std::size_t end = std::min(name.find('/', begin), name.size());
        const std::string part = name.substr(begin, end - begin);
        if (part.empty()) return "an empty folder name in its path";
        if (part == "..") return "a \"..\" in its path: it would land outside the folder";
        if (part == ".") return "a \".\" in its path";
        if (part.size() > 255) return "a name longer than a file's may be";
        begin = end + 1;
    }
    return "";
}

bool looks_like_zip(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {};
    if (!in.read(magic, 4)) return false;
    return magic[0] == 'P' && magic[1] == 'K' && ((magic[2] == 3 && magic[3] == 4) || (magic[2] == 5 && magic[3] == 6));
}

Unpacked unpack_zip(const fs::path& zip_file, const fs::path& folder, const ZipLimits& limits)
{
    const std::string shown = for_terminal(zip_file.string());
    ZipReader reader;
    if (!mz_zip_reader_init_file(&reader.zip, zip_file.c_str(), 0))
        throw std::runtime_error(shown + ": not a ZIP archive hpclab can read (" +
                                 mz_zip_get_error_string(mz_zip_get_last_error(&reader.zip)) + ")");
    reader.open = true;
    const std::vector<Planned> plan = plan_entries(reader.zip, shown, limits);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_empty(folder, ec)) throw std::runtime_error(for_terminal(folder.string()) + ": cannot unpack into it (not a new, empty folder)");
    Unpacked out;
    for (const Planned& p : plan) {
        ZipEntry e {.name = p.name, .why = p.why, .folder = p.folder};
        const fs::path relative = fs::path(p.folder ? p.name.substr(0, p.name.size() - 1) : p.name);
        if (e.why.empty() && p.folder) {
            fs::create_directories(folder / relative, ec);
            e.why = ec ? "cannot be made: " + ec.message() : "";
        } else if (e.why.empty()) {
            std::vector<char> bytes(static_cast<std::size_t>(p.bytes));
            // Into a buffer of the size the archive declared: an entry that inflates to more fails here.
            if (!mz_zip_reader_extract_to_mem(&reader.zip, p.index, bytes.data(), bytes.size(), 0))
                e.why = std::string("cannot be unpacked: ") + mz_zip_get_error_string(mz_zip_get_last_error(&reader.zip));
            else
                e.why = write_new_file(folder / relative, bytes.data(), bytes.size());
        }
        if (e.why.empty()) e.written = relative;
        out.entries.push_back(std::move(e));
    }
    return out;
}

}  // namespace hpclab
