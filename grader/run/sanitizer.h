// compute-sanitizer: a separate diagnostic run of the lab program on small
// inputs, for the bugs that often still give the right answer: accesses out
// of bounds (memcheck) and shared-memory races (racecheck). Its report is
// turned into findings that name the student's file and line.
#pragma once

#include "util/work_dir.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// Status compute-sanitizer exits with when it found errors (--error-exitcode).
inline constexpr int kSanitizerErrorExit = 86;

// The compute-sanitizer next to this nvcc, or on PATH; nothing if none.
std::optional<std::filesystem::path> find_compute_sanitizer(const std::filesystem::path& nvcc);

// The command prefix that runs a program under `tool` (memcheck, racecheck).
// The tool writes its report into `log_file`, not into the program's output:
// a program that prints a flood cannot push the report out of what hpclab
// keeps, and its own prints are never taken for the tool's.
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, std::string_view tool,
                                           const std::filesystem::path& log_file);

// A private folder for one tool's log (compute-sanitizer's, ncu's:
// run/profiler.h), removed with this object.
class ToolLog {
public:
    std::filesystem::path file() const { return dir_.path() / "tool.log"; }
    std::filesystem::path dir() const { return dir_.path(); }
    // What the tool wrote, up to a limit (a report is short; the rest is cut).
    std::string read() const;

private:
    WorkDir dir_ {"tool"};
};

struct SanitizerReport {
    int errors = 0;                    // as the tool counts them
    std::vector<std::string> reports;  // each error as the tool words it, paths shortened (the first few)
    std::string location;              // "labs/x/x.cu:27": the first place in the student's code, if any
};

// Reads compute-sanitizer's output. `root` is removed from paths; a location
// under `student_file` is preferred as the one to show.
SanitizerReport parse_sanitizer_output(std::string_view output, const std::filesystem::path& root,
                                       const std::string& student_file);

}  // namespace hpclab
