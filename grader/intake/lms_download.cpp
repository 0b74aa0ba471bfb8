#include "intake/lms_download.h"

#include "intake/gradescope_metadata.h"
#include "intake/lms_names.h"
#include "intake/zip_unpack.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxPlacedBytes = ZipLimits {}.entry_bytes;
constexpr int kMaxDepth = 12;

const char* const kCanvasForm = "not named as Canvas names a submitted file (<name>[_LATE]_<user id>_<file id>_<file>)";
const char* const kMoodleForm = "not named as Moodle names a submission (<Full Name>_<id>_assignsubmission_file)";

std::vector<fs::directory_entry> entries_of(const fs::path& dir)
{
    std::vector<fs::directory_entry> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
    return out;
}

fs::file_type type_of(const fs::directory_entry& e)
{
    std::error_code ec;
    return e.symlink_status(ec).type();
}

// Copies files into the students' folders, keeping the account.
struct Placer {
    LmsDownload& d;
    const fs::path& class_root;

    void leave(const fs::path& p, std::string why) { d.left_out.push_back({p.lexically_relative(d.root), std::move(why)}); }

    // Why `id` cannot name a student's folder, or empty.
    static std::string unusable(const std::string& id)
    {
        return usable_student_id(id) ? "" : "its student id is not one hpclab can name a folder by";
    }

    // One file, as `student`/`to`; returns whether it was placed.
    bool file(const fs::directory_entry& e, const std::string& student, const fs::path& to)
    {
        const fs::file_type type = type_of(e);
        if (const std::string why = unsafe_entry_name(to.generic_string()); !why.empty())
            return leave(e.path(), "the file's name is not one hpclab can place: " + why), false;
        if (type == fs::file_type::symlink) return leave(e.path(), "a symbolic link: hpclab follows none"), false;
        if (type != fs::file_type::regular) return leave(e.path(), "not a file or a folder: never opened"), false;
        std::error_code ec;
        if (e.file_size(ec) > kMaxPlacedBytes || ec)
            return leave(e.path(), fmt::format("too large (over {} MiB): not a lab's file", kMaxPlacedBytes >> 20)), false;
        const fs::path dest = class_root / student / to;
        if (fs::exists(fs::symlink_status(dest, ec)))
            return leave(e.path(), fmt::format("{} has another file placed as {}", student, to.string())), false;
        fs::create_directories(dest.parent_path(), ec);
        if (ec || !fs::copy_file(e.path(), dest, ec) || ec) return leave(e.path(), "could not be copied: " + ec.message()), false;
        ++d.placed;
        d.students[student];
        d.folders.insert(student);
        return true;
    }

    // A folder's files, under `student`/`to`, as they are laid out.
    void tree(const fs::path& dir, const std::string& student, const fs::path& to, int depth = 0)
    {
        if (depth >= kMaxDepth) return leave(dir, fmt::format("more than {} folders deep: not looked into", kMaxDepth));
        for (const fs::directory_entry& e : entries_of(dir)) {
            const fs::path name = e.path().filename();
            if (type_of(e) == fs::file_type::directory) tree(e.path(), student, to / name, depth + 1);
            else file(e, student, to / name);
        }
    }
};

// Canvas: the newest upload of each file of each student.
void arrange_canvas(Placer& put, const Catalog& catalog)
{
    struct Upload_ {
        fs::directory_entry entry;
        std::string student, file;
        std::tuple<int, long long> order;  // Canvas's -<n>, then its file id
    };
    std::map<std::pair<std::string, std::string>, std::vector<Upload_>> uploads;
    for (const fs::directory_entry& e : entries_of(put.d.root)) {
        const std::string name = e.path().filename().string();
        const auto c = parse_canvas_name(name);
        if (type_of(e) == fs::file_type::directory) put.leave(e.path(), "a folder: Canvas's download is one flat folder of files");
        else if (!c) put.leave(e.path(), kCanvasForm);
        else if (const std::string why = Placer::unusable(c->student); !why.empty()) put.leave(e.path(), why);
        else {
            put.d.students[c->student].late_mark |= c->late;
            if (c->attachment_id.empty()) {
                put.leave(e.path(), "a text entry or a URL (Canvas saves it as a web page): not a lab's file");
                continue;
            }
            const Upload up = upload_of(c->file);
            const bool lab_file = std::any_of(catalog.labs().begin(), catalog.labs().end(),
                                              [&](const LabInfo& l) { return l.student_file == up.file; });
            const std::string file = lab_file ? up.file : c->file;
            uploads[{c->student, file}].push_back({e, c->student, file, {lab_file ? up.number : 0, std::stoll(c->attachment_id)}});
        }
    }
    for (auto& [key, all] : uploads) {
        std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.order > b.order; });
        put.file(all.front().entry, key.first, key.second);
        for (std::size_t i = 1; i < all.size(); ++i)
            put.leave(all[i].entry.path(), fmt::format("an earlier upload of {} (Canvas names a re-upload <name>-<n>; the "
                                                       "newest, {}, is graded)",
                                                       key.second, all.front().entry.path().filename().string()));
    }
}

void arrange_moodle(Placer& put)
{
    for (const fs::directory_entry& e : entries_of(put.d.root)) {
        const std::string name = e.path().filename().string();
        const bool folder = type_of(e) == fs::file_type::directory;
        const auto m = folder ? parse_moodle_folder(name) : parse_moodle_file(name);
        if (!m) put.leave(e.path(), kMoodleForm);
        else if (m->plugin != "file")
            put.leave(e.path(), "Moodle's " + m->plugin + " submission (not an uploaded file): not a lab's file");
        else if (const std::string why = Placer::unusable(m->student); !why.empty()) put.leave(e.path(), why);
        else if (folder) put.tree(e.path(), m->student, "");
        else put.file(e, m->student, m->file);
    }
}

// Gradescope's id for a submitter: the SID, else the email.
std::string gradescope_id(const GradescopeSubmitter& s)
{
    if (usable_student_id(s.sid)) return s.sid;
    return usable_student_id(s.email) ? s.email : "";
}

void arrange_gradescope(Placer& put)
{
    const fs::path meta_file = put.d.root / kGradescopeMetadata;
    const auto text = read_text_file(meta_file);
    const auto meta = parse_gradescope_metadata(text.value_or(""));
    for (const fs::directory_entry& e : entries_of(put.d.root)) {
        const std::string name = e.path().filename().string();
        const auto m = meta.find(name);
        if (e.path() == meta_file) ++put.d.read;
        else if (type_of(e) != fs::file_type::directory || m == meta.end())
            put.leave(e.path(), "not a submission's folder that submission_metadata.yml names");
        else {
            bool anyone = false;
            for (const GradescopeSubmitter& s : m->second.submitters) {
                const std::string id = gradescope_id(s);
                if (id.empty()) continue;
                anyone = true;
                LmsStudent& st = put.d.students[id];
                st.submitted_at = m->second.created_at;
                st.submitted_text = m->second.created_at_text;
                put.tree(e.path(), id, "");
            }
            if (!anyone) put.leave(e.path(), "no submitter with an SID or email hpclab can use as a student's id");
        }
    }
}

bool has_metadata(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(dir / kGradescopeMetadata, ec));
}

}  // namespace

const char* lms_name(LmsLayout layout)
{
    switch (layout) {
    case LmsLayout::canvas: return "Canvas";
    case LmsLayout::moodle: return "Moodle";
    case LmsLayout::gradescope: return "Gradescope";
    }
    return "";
}

std::optional<DetectedLayout> detect_lms_layout(const fs::path& folder)
{
    if (has_metadata(folder)) return DetectedLayout {LmsLayout::gradescope, folder};
    std::vector<fs::path> subfolders;
    int canvas = 0, moodle = 0, entries = 0;  // entries: all but macOS's and hidden ones
    for (const fs::directory_entry& e : entries_of(folder)) {
        const std::string name = e.path().filename().string();
        const fs::file_type type = type_of(e);
        if (name == "__MACOSX" || name.front() == '.') continue;
        ++entries;
        if (type == fs::file_type::directory) subfolders.push_back(e.path());
        if (type == fs::file_type::directory) moodle += parse_moodle_folder(name).has_value();
        if (type == fs::file_type::regular) {
            moodle += parse_moodle_file(name).has_value();
            canvas += parse_canvas_name(name).has_value();
        }
    }
    if (subfolders.size() == 1 && has_metadata(subfolders.front())) return DetectedLayout {LmsLayout::gradescope, subfolders.front()};
    // Most of the entries named as the LMS names them: a class folder with a
    // stray file that happens to look like one stays a class folder.
    if (2 * moodle > entries && moodle >= canvas) return DetectedLayout {LmsLayout::moodle, folder};
    if (2 * canvas > entries) return DetectedLayout {LmsLayout::canvas, folder};
    return std::nullopt;
}

LmsDownload arrange_lms_download(const DetectedLayout& detected, const fs::path& class_root, const Catalog& catalog)
{
    LmsDownload d {.layout = detected.layout, .root = detected.root};
    fs::create_directories(class_root);
    Placer put {d, class_root};
    switch (detected.layout) {
    case LmsLayout::canvas: arrange_canvas(put, catalog); break;
    case LmsLayout::moodle: arrange_moodle(put); break;
    case LmsLayout::gradescope: arrange_gradescope(put); break;
    }
    std::sort(d.left_out.begin(), d.left_out.end(), [](const Ignored& a, const Ignored& b) { return a.path < b.path; });
    return d;
}

nlohmann::json lms_students_json(const LmsDownload& d)
{
    nlohmann::json students = nlohmann::json::object();
    for (const auto& [id, s] : d.students) {
        nlohmann::json j = {{"late_mark", s.late_mark}};
        if (s.submitted_at) j["submitted_at"] = *s.submitted_at;
        if (!s.submitted_text.empty()) j["submitted"] = s.submitted_text;
        students[id] = j;
    }
    return {{"layout", lms_name(d.layout)}, {"students", students}};
}

std::map<std::string, LmsStudent> lms_students_from_json(const nlohmann::json& j)
{
    std::map<std::string, LmsStudent> out;
    if (!j.contains("students")) return out;
    for (const auto& [id, s] : j.at("students").items()) {
        LmsStudent st {.late_mark = s.value("late_mark", false), .submitted_text = s.value("submitted", "")};
        if (s.contains("submitted_at")) st.submitted_at = s.at("submitted_at").get<std::int64_t>();
        out[id] = st;
    }
    return out;
}

}  // namespace hpclab
