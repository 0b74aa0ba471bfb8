#include "run/sanitizer.h"

#include "util/program_path.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <stdlib.h>
#include <regex>
#include <sstream>

namespace hpclab {

namespace fs = std::filesystem;

std::optional<fs::path> find_compute_sanitizer(const fs::path& nvcc)
{
    std::error_code ec;
    if (!nvcc.empty()) {
        const fs::path cuda = nvcc.parent_path().parent_path();
        for (const fs::path& p : {cuda / "bin" / "compute-sanitizer", cuda / "compute-sanitizer" / "compute-sanitizer"})
            if (fs::exists(p, ec)) return p;
    }
    return find_on_path("compute-sanitizer");
}

std::vector<std::string> sanitizer_command(const fs::path& sanitizer, std::string_view tool, const fs::path& log_file)
{
    std::vector<std::string> cmd = {sanitizer.string(), "--tool",       std::string(tool),
                                    "--error-exitcode", std::to_string(kSanitizerErrorExit),
                                    "--print-limit",    "10",
                                    "--log-file",       log_file.string()};
    if (tool == "racecheck") cmd.insert(cmd.end(), {"--racecheck-report", "hazard"});
    return cmd;
}

std::string ToolLog::read() const
{
    constexpr std::size_t kLimit = 1 << 20;
    std::ifstream in(file(), std::ios::binary);
    std::string text(kLimit, '\0');
    in.read(text.data(), static_cast<std::streamsize>(kLimit));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

SanitizerReport parse_sanitizer_output(std::string_view output, const fs::path& root, const std::string& student_file)
{
    SanitizerReport r;
    std::string prefix = root.string();
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
    // The first line of each error, as memcheck, racecheck (both report
    // modes) and the host-API checks word it; warnings are not errors.
    const std::regex error_start(
        R"(^(Invalid |Error: |ERROR: |Program hit |Race reported|Malformed |Barrier error|Uninitialized |Out-of-range |Potential ))");
    const std::regex summary(R"((ERROR|RACECHECK|LEAK) SUMMARY: .*?([0-9]+) error)");
    const std::regex place(R"(in (\S+):([0-9]+))");

    std::istringstream in{std::string(output)};
    std::string line, current;
    auto flush = [&] {
        if (!current.empty() && r.reports.size() < 5) r.reports.push_back(current);
        current.clear();
    };
    int counted = 0;
    while (std::getline(in, line)) {
        if (line.rfind("========= ", 0) != 0) continue;
        std::string body = line.substr(10);
        for (std::size_t pos; !prefix.empty() && (pos = body.find(prefix)) != std::string::npos;)
            body.erase(pos, prefix.size());
        std::smatch m;
        if (std::regex_search(body, m, summary)) {
            flush();
            r.errors += std::stoi(m[2]);
            continue;
        }
        const bool indented = !body.empty() && body[0] == ' ';
        if (!indented && std::regex_search(body, error_start)) {
            flush();
            current = body;
            ++counted;
        } else if (indented && !current.empty()) {
            const auto first = body.find_first_not_of(' ');
            current += "\n    " + body.substr(first == std::string::npos ? 0 : first);
        } else {
            flush();
        }
        if (std::regex_search(body, m, place)) {
            const std::string loc = m[1].str() + ":" + m[2].str();
            const bool in_student = fs::path(m[1].str()).filename() == fs::path(student_file).filename();
            if (r.location.empty() || (in_student && fs::path(r.location.substr(0, r.location.rfind(':'))).filename() !=
                                                         fs::path(student_file).filename()))
                r.location = loc;
        }
    }
    flush();
    if (r.errors == 0) r.errors = counted;  // no summary line (the program died): count the reports
    return r;
}

}  // namespace hpclab
