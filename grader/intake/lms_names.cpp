#include "intake/lms_names.h"

#include <regex>

namespace hpclab {

namespace {

bool digits(const std::string& s)
{
    return !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::optional<CanvasName> parse_canvas_name(const std::string& name)
{
    // Canvas strips the name of everything but word characters and cuts
    // "_<digits>_" out of it, so the first "_<digits>_<digits>_" (or
    // "_<digits>_text.html") after it is the user's and the file's ids.
    static const std::regex upload(R"(^(?:(.*?)_)??(?:(LATE|late)_)?(\d+|anon_[A-Za-z0-9]+)_(\d+)_(.+)$)");
    static const std::regex inline_text(R"(^(?:(.*?)_)??(?:(LATE|late)_)?(\d+|anon_[A-Za-z0-9]+)_(text|link)\.html$)");
    std::smatch m;
    if (std::regex_match(name, m, upload) && (m[1].matched || m[3].str().rfind("anon_", 0) == 0))
        return CanvasName {m[3], m[2].matched, m[4], m[5]};
    if (std::regex_match(name, m, inline_text) && (m[1].matched || m[3].str().rfind("anon_", 0) == 0))
        return CanvasName {m[3], m[2].matched, "", m[4].str() + ".html"};
    return std::nullopt;
}

std::optional<MoodleName> parse_moodle_folder(const std::string& name)
{
    static const std::regex folder(R"(^(.+)_(\d+)_assignsubmission_([a-z]+)_?$)");
    std::smatch m;
    if (!std::regex_match(name, m, folder)) return std::nullopt;
    return MoodleName {m[2], m[3], ""};
}

std::optional<MoodleName> parse_moodle_file(const std::string& name)
{
    static const std::regex flat(R"(^(.+?)_(\d+)_assignsubmission_([a-z]+)_(.+)$)");
    std::smatch m;
    if (!std::regex_match(name, m, flat)) return std::nullopt;
    return MoodleName {m[2], m[3], m[4]};
}

Upload upload_of(const std::string& file)
{
    const auto dot = file.rfind('.');
    const std::string stem = file.substr(0, dot), ext = dot == std::string::npos ? "" : file.substr(dot);
    const auto dash = stem.rfind('-');
    if (dash == std::string::npos || dash == 0 || stem.size() - dash > 5 || !digits(stem.substr(dash + 1))) return {file, 0};
    return {stem.substr(0, dash) + ext, std::stoi(stem.substr(dash + 1))};
}

}  // namespace hpclab
