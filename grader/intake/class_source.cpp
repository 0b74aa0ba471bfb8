#include "intake/class_source.h"

#include "util/atomic_file.h"
#include "util/escape.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

fs::path record_file(const fs::path& out) { return out / "download.json"; }

// download/ and submissions/ are hpclab's to remake: it wrote them, and
// says so in download.json. A folder of those names that it did not write
// is never removed.
void clear_earlier(const fs::path& out)
{
    std::error_code ec;
    const bool ours = fs::exists(record_file(out), ec);
    for (const char* name : {"download", "submissions"}) {
        if (!fs::exists(fs::symlink_status(out / name, ec))) continue;
        if (!ours)
            throw std::runtime_error(for_terminal((out / name).string()) + " exists and hpclab did not write it: grade "
                                     "the download into another --out folder");
        fs::remove_all(out / name, ec);
        if (ec) throw std::runtime_error(for_terminal((out / name).string()) + ": cannot be removed: " + ec.message());
    }
}

void write_record(const fs::path& out, const ClassSource& s)
{
    nlohmann::json j = s.download ? lms_students_json(*s.download) : nlohmann::json {{"layout", "none"}};
    write_file_atomically(record_file(out), j.dump(2) + "\n");
}

// Whether `given` is (or is in) one of the folders hpclab remakes in `out`.
bool inside_own_copy(const fs::path& given, const fs::path& out)
{
    std::error_code ec;
    const fs::path g = fs::weakly_canonical(given, ec);
    for (const char* name : {"download", "submissions"}) {
        const fs::path own = fs::weakly_canonical(out / name, ec);
        const auto [end, rest] = std::mismatch(own.begin(), own.end(), g.begin(), g.end());
        if (end == own.end()) return true;
    }
    return false;
}

}  // namespace

ClassSource prepare_class_source(const fs::path& given, const fs::path& out, const Catalog& catalog)
{
    std::error_code ec;
    if (inside_own_copy(given, out) && detect_lms_layout(given))
        throw std::runtime_error(for_terminal(given.string()) + " is hpclab's own copy of a download in " +
                                 for_terminal(out.string()) + ", which it remakes: grade the ZIP or the folder you were given");
    const fs::file_status status = fs::status(given, ec);
    ClassSource s {.class_root = given};
    if (fs::is_regular_file(status)) {
        if (!looks_like_zip(given))
            throw std::runtime_error(for_terminal(given.string()) + ": neither a folder of submissions nor a ZIP archive");
        fs::create_directories(out);
        clear_earlier(out);
        write_record(out, s);  // the folders below are hpclab's from here on
        s.unpacked = unpack_zip(given, out / "download");
        s.class_root = out / "download";
    } else if (!fs::is_directory(status)) {
        return s;  // discover_class says what is wrong with it
    }
    const auto detected = detect_lms_layout(s.class_root);
    if (!detected) {
        if (s.unpacked) write_record(out, s);
        return s;
    }
    if (!s.unpacked) {
        fs::create_directories(out);
        clear_earlier(out);
        write_record(out, s);
    }
    s.download = arrange_lms_download(*detected, out / "submissions", catalog);
    s.class_root = out / "submissions";
    write_record(out, s);
    return s;
}

bool source_writes_output(const fs::path& given)
{
    std::error_code ec;
    if (fs::is_regular_file(given, ec)) return true;
    return fs::is_directory(given, ec) && detect_lms_layout(given).has_value();
}

std::map<std::string, LmsStudent> kept_lms_students(const fs::path& out)
{
    const auto text = read_text_file(record_file(out));
    if (!text) return {};
    try {
        return lms_students_from_json(nlohmann::json::parse(*text));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(record_file(out).string() + ": not hpclab's record of a download (" + e.what() + ")");
    }
}

std::string class_source_summary(const ClassSource& s)
{
    std::string out;
    if (s.unpacked) {
        std::size_t refused = 0;
        for (const ZipEntry& e : s.unpacked->entries) refused += !e.why.empty();
        out += fmt::format("Unpacked {} files of {} entries{}\n", s.unpacked->files_written(), s.unpacked->entries.size(),
                           refused ? fmt::format("; {} not unpacked:", refused) : ".");
        for (const ZipEntry& e : s.unpacked->entries)
            if (!e.why.empty()) out += fmt::format("  {}: {}\n", for_terminal(e.name), for_terminal(e.why));
    }
    if (!s.download) return out;
    const LmsDownload& d = *s.download;
    std::size_t late = 0;
    for (const auto& [id, st] : d.students) late += st.late_mark;
    out += fmt::format("{} download: {} files placed in {} students' folders{}{}{}\n", lms_name(d.layout), d.placed,
                       d.folders.size(), late ? fmt::format(", {} marked late", late) : "",
                       d.read ? fmt::format(", {} metadata file read", d.read) : "",
                       d.left_out.empty() ? "." : fmt::format("; {} left out:", d.left_out.size()));
    for (const Ignored& g : d.left_out) out += fmt::format("  {}: {}\n", for_terminal(g.path.string()), for_terminal(g.why));
    return out;
}

}  // namespace hpclab
