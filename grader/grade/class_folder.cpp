#include "grade/class_folder.h"

#include "util/keyed_hash.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// Folders a copy of the course or an editor brings along, never a student's work.
bool tool_folder(const std::string& name) { return !name.empty() && name[0] == '.'; }

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

// Why a candidate file cannot be graded as it is, or empty.
std::string unreadable_why(const fs::path& file, std::uintmax_t bytes, const std::optional<std::string>& text)
{
    if (bytes > kMaxSubmissionBytes)
        return fmt::format("too large ({:.1f} MiB; a lab's file is at most {} MiB)", bytes / 1048576.0,
                           kMaxSubmissionBytes >> 20);
    if (!text) return "cannot be read";
    if (text->empty()) return "empty";
    if (text->find('\0') != std::string::npos) return "binary (it holds NUL bytes): not a source file";
    (void)file;
    return "";
}

struct Candidate {
    fs::path file;
    const LabInfo* lab;
    std::string text;
};

// The .cu files of one student, by lab; everything else into `out`.
void scan_student(const fs::path& root, const fs::path& folder, const Catalog& catalog, ClassFolder& out,
                  std::map<const LabInfo*, std::vector<Candidate>>& found)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end;
    if (ec) {
        out.ignored.push_back({folder.lexically_relative(root), "cannot be read: " + ec.message()});
        return;
    }
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const fs::path p = it->path();
        const fs::path shown = p.lexically_relative(root);
        const std::string name = p.filename().string();
        if (it->is_symlink()) {
            if (p.extension() == ".cu" || it->is_directory()) out.ignored.push_back({shown, "a symbolic link: hpclab follows none"});
            continue;
        }
        if (it->is_directory()) {
            if (tool_folder(name) || it.depth() >= 3) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        if (p.extension() != ".cu") {
            ++out.other_files;
            continue;
        }
        const LabInfo* lab = lab_of_file(catalog, name);
        if (!lab) {
            out.ignored.push_back({shown, "not a lab's file (they are " + lab_files(catalog) + ")"});
            continue;
        }
        // Loose in the student's folder, or in a copy of labs/ at its place.
        const fs::path where = fs::relative(p.parent_path(), folder);
        if (where != "." && where != fs::path("labs") / lab->id) {
            out.ignored.push_back({shown, fmt::format("not where {} goes ({}/ or {}/labs/{}/)", name,
                                                      folder.filename().string(), folder.filename().string(), lab->id)});
            continue;
        }
        const std::uintmax_t bytes = it->file_size(ec);
        const auto text = bytes > kMaxSubmissionBytes ? std::nullopt : read_text_file(p);
        if (const std::string why = unreadable_why(p, bytes, text); !why.empty()) {
            out.ignored.push_back({shown, why});
            continue;
        }
        found[lab].push_back({p, lab, *text});
    }
    if (ec) out.ignored.push_back({folder.lexically_relative(root), "could not be read whole: " + ec.message()});
}

}  // namespace

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

ClassFolder discover_class(const fs::path& root_in, const Catalog& catalog)
{
    std::error_code ec;
    if (!fs::is_directory(root_in, ec)) throw std::runtime_error(root_in.string() + ": not a folder of submissions");
    ClassFolder out {.root = fs::absolute(root_in)};
    std::map<std::string, std::string> skeletons;  // the handed-out text, by lab
    for (const LabInfo& lab : catalog.labs()) skeletons[lab.id] = read_text_file(lab.student_source()).value_or("");
    fs::directory_iterator it(out.root, ec);
    if (ec) throw std::runtime_error(root_in.string() + ": cannot be read: " + ec.message());
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        if (entry.is_symlink()) {
            out.ignored.push_back({name, "a symbolic link: hpclab follows none"});
            continue;
        }
        if (!entry.is_directory()) {
            out.ignored.push_back({name, "a file outside any student's folder (a folder per student holds the files)"});
            continue;
        }
        if (tool_folder(name)) continue;
        if (!usable_student_id(name)) {
            out.ignored.push_back({name, "a folder name hpclab will not use as a student's id (letters, digits and . _ - @ + only)"});
            continue;
        }
        std::map<const LabInfo*, std::vector<Candidate>> found;
        scan_student(out.root, entry.path(), catalog, out, found);
        Student student {.id = name, .folder = entry.path()};
        for (const LabInfo& lab : catalog.labs()) {
            const auto f = found.find(&lab);
            if (f == found.end()) continue;
            if (f->second.size() > 1) {
                for (const Candidate& c : f->second)
                    out.ignored.push_back({c.file.lexically_relative(out.root),
                                           fmt::format("{} has {} files for {}: keep one, then grade again", name,
                                                       f->second.size(), lab.id)});
                continue;
            }
            const Candidate& c = f->second.front();
            student.submissions.push_back({.lab = &lab, .file = c.file, .content_hash = submission_hash(c.text),
                                           .unchanged_skeleton = c.text == skeletons[lab.id]});
        }
        out.students.push_back(std::move(student));
    }
    std::sort(out.students.begin(), out.students.end(), [](const Student& a, const Student& b) { return a.id < b.id; });
    std::sort(out.ignored.begin(), out.ignored.end(), [](const Ignored& a, const Ignored& b) { return a.path < b.path; });
    return out;
}

}  // namespace hpclab
