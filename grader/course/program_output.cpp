#include "course/program_output.h"

#include <cmath>
#include <sstream>

namespace hpclab {

namespace {

std::string collapse_blanks(std::string_view s)
{
    std::string out;
    bool blank = false;
    for (const char c : s) {
        const bool is_blank = c == ' ' || c == '\t' || c == '\r';
        if (is_blank && !out.empty()) blank = true;
        if (is_blank) continue;
        if (blank) out += ' ';
        blank = false;
        out += c;
    }
    return out;
}

// The line's value when it is "<label>: <value>" (blanks before the label allowed).
std::optional<std::string> value_after(std::string_view line, std::string_view label)
{
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return std::nullopt;
    line.remove_prefix(start);
    if (line.substr(0, label.size()) != label || line.substr(label.size(), 1) != ":") return std::nullopt;
    return collapse_blanks(line.substr(label.size() + 1));
}

void read_time(const std::string& line, std::string_view label, std::optional<PrintedTime>& slot,
               ProgramOutput& out)
{
    const auto value = value_after(line, label);
    if (!value) return;
    const auto seconds = seconds_of(*value);
    if (!seconds || slot) {
        out.unreadable.push_back(line);
        return;
    }
    slot = PrintedTime{*seconds, *value};
}

}  // namespace

const std::vector<std::string>& property_labels()
{
    static const std::vector<std::string> labels = {
        "Device name",     "CUDA capability",         "Global memory",
        "Multiprocessors", "Warp size",               "Shared memory per block",
        "Constant memory", "Max number of threads per block", "Max size of a thread block",
        "Max grid size"};
    return labels;
}

std::optional<double> seconds_of(std::string_view value)
{
    const auto space = value.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    double number = 0;
    const std::string digits(value.substr(0, space));
    std::istringstream in(digits);  // from_chars for double is missing from older libstdc++
    if (!(in >> number) || !in.eof() || !std::isfinite(number)) return std::nullopt;
    const std::string_view unit = value.substr(space + 1);
    if (unit == "s") return number;
    if (unit == "ms") return number / 1e3;
    return std::nullopt;
}

ProgramOutput read_program_output(std::string_view stdout_text)
{
    ProgramOutput out;
    std::istringstream in{std::string(stdout_text)};
    std::string line;
    while (std::getline(in, line)) {
        for (const auto& label : property_labels()) {
            const auto value = value_after(line, label);
            if (!value) continue;
            if (!out.properties.emplace(label, *value).second) out.unreadable.push_back(line);
        }
        read_time(line, kTimeLaunchLabel, out.launch, out);
        read_time(line, kTimeSyncLabel, out.sync, out);
        read_time(line, kTimeEventsLabel, out.events, out);
    }
    return out;
}

}  // namespace hpclab
