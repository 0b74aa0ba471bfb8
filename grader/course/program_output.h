// What a program lab's program prints (labs/program/program.cu fixes the
// format): one line per property of the GPU, as slide 76's table, and one
// per time, each "<label>: <value>". Read here, for the student's program
// and for hpclab's own timing program alike; lines that are not one of these
// (a student's own printf) are left alone.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// The labels of the property lines, in the skeleton's order.
const std::vector<std::string>& property_labels();

// The labels of the three times: the launch alone, with
// cudaDeviceSynchronize, with CUDA events.
inline constexpr std::string_view kTimeLaunchLabel = "Time without synchronization";
inline constexpr std::string_view kTimeSyncLabel = "Time with cudaDeviceSynchronize";
inline constexpr std::string_view kTimeEventsLabel = "Time with CUDA events";

struct PrintedTime {
    double seconds = 0;
    std::string text;  // the value as printed, with its unit ("8.123 ms")
};

struct ProgramOutput {
    std::map<std::string, std::string> properties;  // label -> value, blanks collapsed
    std::optional<PrintedTime> launch, sync, events;
    // Lines that start with a label but cannot be read (a time without its
    // unit, a label twice): said back to the student as they are.
    std::vector<std::string> unreadable;
};

ProgramOutput read_program_output(std::string_view stdout_text);

// "8.123 ms", "0.000011 s" -> seconds; nothing for another unit or no number.
std::optional<double> seconds_of(std::string_view value);

}  // namespace hpclab
