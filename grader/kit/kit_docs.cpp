#include "kit/kit_docs.h"

#include <regex>
#include <sstream>

namespace hpclab {

namespace fs = std::filesystem;

bool course_only_path(std::string_view path, const fs::path& course, const fs::path& kit)
{
    const std::string p(path.substr(0, path.find_first_of("<*{")));  // up to its first placeholder
    const std::string first = p.substr(0, p.find('/'));
    if (first.empty() || first == "." || first == "..") return false;
    std::error_code ec;
    if (!fs::exists(course / first, ec)) return false;  // a folder hpclab writes (grades/), not the course's
    fs::path known = p;
    while (!known.empty() && !fs::exists(course / known, ec)) known = known.parent_path();  // "bench/matmul/" -> "bench/matmul"
    return !known.empty() && !fs::exists(kit / known, ec);
}

namespace {

std::string mark_line(const std::string& line, bool in_code, const fs::path& course, const fs::path& kit)
{
    if (in_code) {
        if (line.find("--solution") == std::string::npos || line.find(kCourseOnlyMark) != std::string::npos)
            return line;
        return line + "   #" + std::string(kCourseOnlyMark);
    }
    static const std::regex quoted("`([^`\n]+)`");
    std::string out;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), quoted); it != std::sregex_iterator(); ++it) {
        const std::string q = (*it)[1].str();
        const auto end = static_cast<std::size_t>(it->position() + it->length());
        out += line.substr(from, end - from);
        from = end;
        const bool path = q.find('/') != std::string::npos && q.find(' ') == std::string::npos;
        const bool marked = line.compare(end, kCourseOnlyMark.size(), kCourseOnlyMark) == 0;
        if (!marked && (q.find("--solution") != std::string::npos || (path && course_only_path(q, course, kit))))
            out += kCourseOnlyMark;
    }
    return out + line.substr(from);
}

}  // namespace

std::string mark_course_only(const std::string& page, const fs::path& course, const fs::path& kit)
{
    std::istringstream in(page);
    std::string out, line;
    bool in_code = false;
    while (std::getline(in, line)) {
        const bool fence = line.rfind("```", 0) == 0;
        out += fence ? line : mark_line(line, in_code, course, kit);
        if (fence) in_code = !in_code;
        if (!in.eof()) out += '\n';
    }
    return out;
}

}  // namespace hpclab
