#include "intake/class_folder.h"

#include "util/escape.h"
#include "util/keyed_hash.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

bool hidden(const std::string& name) { return !name.empty() && name[0] == '.'; }

const char* const kGradeOutput = "an hpclab grade output folder, not a student's: grade into a folder outside the submissions";

// Whether `dir` is hpclab grade's output: the one of this grading, or one
// that holds a grading's settings or lock (an earlier one, moved in).
bool grade_output(const fs::path& dir, const fs::path& output)
{
    std::error_code ec;
    return (!output.empty() && fs::equivalent(dir, output, ec)) || fs::exists(dir / "grading.json", ec) ||
           fs::exists(dir / ".hpclab-grade.lock", ec);
}

const LabInfo* lab_of_file(const Catalog& catalog, const std::string& name)
{
    for (const LabInfo& lab : catalog.labs())
        if (lab.student_file == name) return &lab;
    return nullptr;
}

std::string lab_files(const Catalog& catalog)
{
    std::string out;
    for (const LabInfo& lab : catalog.labs()) out += (out.empty() ? "" : ", ") + lab.student_file;
    return out;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The lab a file that is not named as one looks meant for: the name in
// other case (vecadd3.CU), with something after it (vecadd3.cu.txt, a
// browser's "vecadd3 (1).cu", vecadd3_final.cu), or a typo of it.
const LabInfo* near_miss(const Catalog& catalog, const std::string& name)
{
    const std::string lower = trimmed_lower(name);
    const bool cu = fs::path(lower).extension() == ".cu";
    std::vector<std::string> files;
    for (const LabInfo& lab : catalog.labs()) {
        const std::string& f = lab.student_file;
        if (lower == f || starts_with(lower, f + ".") || starts_with(lower, f + "~")) return &lab;
        if (cu && starts_with(lower, lab.id) && lower.size() > lab.id.size() + 3 &&
            !std::isalnum(static_cast<unsigned char>(lower[lab.id.size()])))
            return &lab;
        files.push_back(f);
    }
    const std::string close = closest(lower, files);
    return close.empty() ? nullptr : lab_of_file(catalog, close);
}

// What an entry that is neither a file nor a folder is ("a FIFO"), never opened.
std::string special_kind(fs::file_type type)
{
    switch (type) {
    case fs::file_type::fifo: return "a FIFO (named pipe)";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::block: return "a block device";
    case fs::file_type::character: return "a character device";
    default: return "not a file or a folder";
    }
}

// Why a candidate file cannot be graded as it is, with what to do; or empty.
std::string unreadable_why(std::uintmax_t bytes, const std::optional<std::string>& text)
{
    if (bytes > kMaxSubmissionBytes)
        return fmt::format("too large ({:.1f} MiB; a lab's file is at most {} MiB): hand in the source alone",
                           bytes / 1048576.0, kMaxSubmissionBytes >> 20);
    if (!text) return "cannot be read (its permissions?)";
    if (text->empty()) return "empty: hand in the lab's file with your code in it";
    if (starts_with(*text, "\xFF\xFE") || starts_with(*text, "\xFE\xFF"))
        return "UTF-16 text, which the compiler does not read: save it as UTF-8, then hand it in again";
    if (text->find('\0') != std::string::npos) return "binary (it holds NUL bytes): not a source file";
    return "";
}

// A regular file's bytes, read only if it still is one when opened (never
// through a link, never blocking on what replaced it, a FIFO), and no
// larger than a submission may be; nothing otherwise.
std::optional<std::string> read_regular_file(const fs::path& p)
{
    const int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::optional<std::string> out;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) <= kMaxSubmissionBytes) {
        std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
        std::size_t got = 0;
        for (ssize_t n; got < bytes.size() && (n = ::read(fd, bytes.data() + got, bytes.size() - got)) > 0;)
            got += static_cast<std::size_t>(n);
        bytes.resize(got);
        out = std::move(bytes);
    }
    ::close(fd);
    return out;
}

struct Candidate {
    fs::path file;
    std::string text;
};

// One student's folder, walked entry by entry (never through a link).
struct StudentWalk {
    const fs::path& root;
    const Catalog& catalog;
    ClassFolder& out;
    const std::string& id;
    const fs::path& output;
    std::map<const LabInfo*, std::vector<Candidate>> found;
    std::map<const LabInfo*, std::vector<Ignored>> refused;

    void ignore(const fs::path& p, std::string why, const LabInfo* lab = nullptr)
    {
        Ignored g {p.lexically_relative(root), std::move(why), lab};
        if (lab) refused[lab].push_back(g);
        out.ignored.push_back(std::move(g));
    }

    // What a name says about the lab it is for: its lab, or a near miss.
    const LabInfo* lab_named(const std::string& name) const
    {
        const LabInfo* lab = lab_of_file(catalog, name);
        return lab ? lab : near_miss(catalog, name);
    }

    void file(const fs::directory_entry& e, const fs::path& folder)
    {
        const fs::path& p = e.path();
        const std::string name = p.filename().string();
        const LabInfo* lab = lab_of_file(catalog, name);
        if (!lab) {
            if (const LabInfo* meant = near_miss(catalog, name))
                ignore(p, fmt::format("not named as a lab's file: did you mean `{}`? Rename it to grade it", meant->student_file), meant);
            else if (p.extension() == ".cu")
                ignore(p, "not a lab's file (they are " + lab_files(catalog) + ")");
            else
                out.left_alone.push_back(p.lexically_relative(root));
            return;
        }
        const fs::path where = p.parent_path().lexically_relative(folder);
        if (where != "." && where != fs::path("labs") / lab->id) {
            ignore(p, fmt::format("not where {} goes ({}/{} or {}/labs/{}/{}): move it there to grade it", name, id, name, id, lab->id, name), lab);
            return;
        }
        std::error_code ec;
        const std::uintmax_t bytes = e.file_size(ec);
        const auto text = ec || bytes > kMaxSubmissionBytes ? std::nullopt : read_regular_file(p);
        if (const std::string why = unreadable_why(ec ? 0 : bytes, text); !why.empty()) {
            ignore(p, why, lab);
            return;
        }
        found[lab].push_back({p, *text});
    }

    void folder(const fs::path& dir, const fs::path& student_folder, int depth)
    {
        std::error_code ec;
        fs::directory_iterator it(dir, ec), end;
        if (ec) {
            ignore(dir, "cannot be read: " + ec.message());
            return;
        }
        for (; it != end; it.increment(ec)) {
            const fs::directory_entry& e = *it;
            const std::string name = e.path().filename().string();
            std::error_code sec;
            const fs::file_type type = e.symlink_status(sec).type();
            if (type == fs::file_type::symlink) ignore(e.path(), "a symbolic link: hpclab follows none", lab_named(name));
            else if (type == fs::file_type::directory) subfolder(e.path(), student_folder, depth);
            else if (type == fs::file_type::regular) file(e, student_folder);
            else ignore(e.path(), special_kind(type) + ": not a file, never opened", lab_named(name));
        }
        if (ec) ignore(dir, "could not be read whole: " + ec.message());
    }

    void subfolder(const fs::path& dir, const fs::path& student_folder, int depth)
    {
        const std::string name = dir.filename().string();
        if (hidden(name)) {
            ignore(dir, "a hidden folder (an editor's, git's or the system's): not looked into; a lab's file in it is "
                        "not graded");
            return;
        }
        if (grade_output(dir, output)) {
            ignore(dir, kGradeOutput);
            return;
        }
        if (depth + 1 >= kMaxFolderDepth) {
            ignore(dir, fmt::format("more than {} folders deep: not looked into", kMaxFolderDepth));
            return;
        }
        if (const LabInfo* lab = lab_named(name); lab && fs::path(name).extension() != "")
            ignore(dir, fmt::format("a folder named like a file: the lab's file is the file {} (its contents are "
                                    "listed here too)", lab->student_file), lab);
        folder(dir, student_folder, depth + 1);
    }
};

// Why a folder at the top is nobody's, or empty (a student's).
std::string not_a_student(const fs::path& dir, const std::string& name, const fs::path& output)
{
    if (grade_output(dir, output)) return kGradeOutput;
    if (name == "__MACOSX") return "macOS's archive metadata (its ._ files), not a student's";
    if (hidden(name))
        return "a hidden folder: hpclab takes no hidden name as a student's id; if it is a student's, rename it "
               "without the leading dot";
    if (!usable_student_id(name))
        return "a folder name hpclab will not use as a student's id (letters, digits and . _ - @ + only): rename it";
    return "";
}

Student student_of(const fs::path& root, const fs::directory_entry& entry, const Catalog& catalog, ClassFolder& out,
                   const std::map<std::string, std::string>& skeletons, const fs::path& output)
{
    Student student {.id = entry.path().filename().string(), .folder = entry.path()};
    StudentWalk walk {root, catalog, out, student.id, output};
    walk.folder(entry.path(), entry.path(), 0);
    for (const LabInfo& lab : catalog.labs()) {
        const auto f = walk.found.find(&lab);
        if (f != walk.found.end() && f->second.size() > 1)
            for (const Candidate& c : f->second)
                walk.ignore(c.file, fmt::format("{} has {} files for {}: keep one, then grade again", student.id,
                                                f->second.size(), lab.id), &lab);
        else if (f != walk.found.end()) {
            const Candidate& c = f->second.front();
            student.submissions.push_back({.lab = &lab, .file = c.file, .content_hash = submission_hash(c.text),
                                           .unchanged_skeleton = c.text == skeletons.at(lab.id)});
            continue;
        }
        if (const auto r = walk.refused.find(&lab); r != walk.refused.end()) student.refused.insert(student.refused.end(), r->second.begin(), r->second.end());
    }
    return student;
}

}  // namespace

std::size_t ClassFolder::submissions() const
{
    std::size_t n = 0;
    for (const Student& s : students) n += s.submissions.size();
    return n;
}

std::uint64_t submission_hash(const std::string& bytes)
{
    return keyed_hash(std::as_bytes(std::span(bytes)), 0x7375626du);
}

bool usable_student_id(const std::string& name)
{
    if (name.empty() || name.size() > 100 || name[0] == '.' || name[0] == '-') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '@' || c == '+';
    });
}

ClassFolder discover_class(const fs::path& root_in, const Catalog& catalog, const fs::path& output)
{
    std::error_code ec;
    if (!fs::is_directory(root_in, ec)) throw std::runtime_error(for_terminal(root_in.string()) + ": not a folder of submissions");
    ClassFolder out {.root = fs::absolute(root_in)};
    std::map<std::string, std::string> skeletons;  // the handed-out text, by lab
    for (const LabInfo& lab : catalog.labs()) skeletons[lab.id] = read_text_file(lab.student_source()).value_or("");
    fs::directory_iterator it(out.root, ec), end;
    if (ec) throw std::runtime_error(for_terminal(root_in.string()) + ": cannot be read: " + ec.message());
    for (; it != end; it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        const std::string name = entry.path().filename().string();
        std::error_code sec;
        const fs::file_type type = entry.symlink_status(sec).type();
        if (type == fs::file_type::symlink) out.ignored.push_back({name, "a symbolic link: hpclab follows none"});
        else if (type == fs::file_type::regular)
            out.ignored.push_back({name, "a file outside any student's folder (a folder per student holds the files)"});
        else if (type != fs::file_type::directory)
            out.ignored.push_back({name, special_kind(type) + ": not a file, never opened"});
        else if (const std::string why = not_a_student(entry.path(), name, output); !why.empty())
            out.ignored.push_back({name, why});
        else
            out.students.push_back(student_of(out.root, entry, catalog, out, skeletons, output));
    }
    if (ec) out.ignored.push_back({".", "could not be read whole: " + ec.message()});
    std::sort(out.students.begin(), out.students.end(), [](const Student& a, const Student& b) { return a.id < b.id; });
    std::sort(out.ignored.begin(), out.ignored.end(), [](const Ignored& a, const Ignored& b) { return a.path < b.path; });
    std::sort(out.left_alone.begin(), out.left_alone.end());
    return out;
}

}  // namespace hpclab
