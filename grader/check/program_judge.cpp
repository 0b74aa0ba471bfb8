#include "check/program_judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace hpclab {

namespace {

// The calls without which a printed value cannot have been measured: the
// properties come from a query of the runtime or the driver, the event time
// from cudaEventElapsedTime. By prefix: the versioned names
// (cudaGetDeviceProperties_v2) count as theirs. The host times have no such
// call: any clock a C, C++ or CUDA program may read will do (clock_gettime,
// gettimeofday, std::chrono, clock, omp_get_wtime, the time-stamp counter,
// ...), and they are held to hpclab's own measurements, below and above.
struct NeededCall {
    std::string what;                    // the printed lines it stands behind
    std::vector<std::string> prefixes;   // any one will do
};

const NeededCall kPropertiesCall {"the properties",
                                  {"cudaGetDeviceProperties", "cudaDeviceGetAttribute", "cuDeviceGetAttribute"}};
const NeededCall kEventsCall {"the time with CUDA events", {"cudaEventElapsedTime", "cuEventElapsedTime"}};

bool calls_any(const std::set<std::string>& calls, const NeededCall& need)
{
    return std::any_of(calls.begin(), calls.end(), [&](const std::string& c) {
        return std::any_of(need.prefixes.begin(), need.prefixes.end(),
                           [&](const std::string& p) { return c.rfind(p, 0) == 0; });
    });
}

std::string seconds_text(double s) { return s >= 1e-3 ? fmt::format("{:.4f} s", s) : fmt::format("{:.6f} s", s); }

struct Judging {
    ProgramJudgement& out;
    bool any_wrong = false;

    void wrong(std::string problem)
    {
        any_wrong = true;
        out.problems.push_back(std::move(problem));
    }
};

// Every property line against the driver's answer, to the character.
bool judge_properties(const ProgramOutput& printed, const std::map<std::string, std::string>& properties, Judging& j)
{
    bool all_ok = true;
    for (const auto& label : property_labels()) {
        const auto want = properties.find(label);
        if (want == properties.end()) continue;  // a property hpclab could not ask: not judged
        const auto got = printed.properties.find(label);
        JudgedLine line {label, got == printed.properties.end() ? "" : got->second, want->second};
        line.ok = got != printed.properties.end() && got->second == want->second;
        if (got == printed.properties.end())
            j.wrong(fmt::format("the program did not print the line \"{}: ...\"", label));
        else if (!line.ok)
            j.wrong(fmt::format("{}: {}, but this GPU says {} (hpclab's own query of the driver)", label,
                                got->second, want->second));
        all_ok = all_ok && line.ok;
        j.out.lines.push_back(std::move(line));
    }
    return all_ok;
}

// A time of the kernel: within the factor of hpclab's measurement, either way.
bool judge_kernel_time(std::string_view label, const std::optional<PrintedTime>& time, const KernelTimes& measured,
                       const ProgramRules& rules, Judging& j)
{
    const double low = measured.events_s / rules.time_factor, high = measured.events_s * rules.time_factor;
    JudgedLine line {std::string(label), time ? time->text : "", fmt::format("{} .. {}", seconds_text(low),
                                                                             seconds_text(high))};
    line.ok = time && time->seconds >= low && time->seconds <= high;
    if (!time)
        j.wrong(fmt::format("the program did not print the line \"{}: ...\" (with its unit, s or ms)", label));
    else if (time->seconds < low)
        j.wrong(fmt::format("{}: {}, but the kernel takes {} on this GPU (hpclab's own measurement): did the "
                            "program launch it, and wait for it before it read the time?",
                            label, time->text, seconds_text(measured.events_s)));
    else if (!line.ok)
        j.wrong(fmt::format("{}: {}, but the kernel takes {} on this GPU (hpclab's own measurement): more than "
                            "{}x longer (is the unit right?)",
                            label, time->text, seconds_text(measured.events_s), rules.time_factor));
    const bool ok = line.ok;
    j.out.lines.push_back(std::move(line));
    return ok;
}

// The smallest step the printed text can show: "0.000004 s" has 1e-6 s.
double printed_step_s(const PrintedTime& t)
{
    const auto dot = t.text.find('.');
    std::size_t decimals = 0;
    if (dot != std::string::npos)
        while (dot + 1 + decimals < t.text.size() && std::isdigit(static_cast<unsigned char>(t.text[dot + 1 + decimals])))
            ++decimals;
    const double unit = t.text.find("ms") != std::string::npos ? 1e-3 : t.text.find("us") != std::string::npos ? 1e-6 : 1.0;
    return std::pow(10.0, -static_cast<double>(decimals)) * unit;
}

// The time around the launch alone: the launch, well below the kernel, and
// not nothing (a launch takes microseconds: a tenth of hpclab's, less what
// the printed digits can show).
bool judge_launch_time(const std::optional<PrintedTime>& time, const KernelTimes& measured, const ProgramRules& rules,
                       Judging& j)
{
    const double high = measured.events_s * rules.launch_fraction;
    const double low = time ? std::max(0.0, measured.launch_s / 10 - printed_step_s(*time)) : 0;
    JudgedLine line {std::string(kTimeLaunchLabel), time ? time->text : "",
                     low > 0 ? seconds_text(low) + " .. " + seconds_text(high) : "below " + seconds_text(high)};
    line.ok = time && time->seconds >= low && time->seconds < high;
    if (!time)
        j.wrong(fmt::format("the program did not print the line \"{}: ...\" (with its unit, s or ms)",
                            kTimeLaunchLabel));
    else if (time->seconds < low)
        j.wrong(fmt::format("{}: {}, but a launch takes time: hpclab measured {} for the same launch. Did the "
                            "program read the clock before and after it?",
                            kTimeLaunchLabel, time->text, seconds_text(measured.launch_s)));
    else if (!line.ok)
        j.wrong(fmt::format("{}: {}, but a launch returns at once: without synchronization the time is the "
                            "launch's alone (hpclab measured {}), far below the kernel's {}. Something between "
                            "the launch and the clock waited for the kernel (cudaCheckError() synchronizes)",
                            kTimeLaunchLabel, time->text, seconds_text(measured.launch_s),
                            seconds_text(measured.events_s)));
    const bool ok = line.ok;
    j.out.lines.push_back(std::move(line));
    return ok;
}

// Right values that the object's calls cannot have produced.
void judge_technique(const std::set<std::string>& calls, const std::vector<std::pair<bool, NeededCall>>& checks,
                     Judging& j, bool& unmeasured)
{
    for (const auto& [values_right, need] : checks) {
        if (!values_right || calls_any(calls, need)) continue;
        unmeasured = true;
        j.out.problems.push_back(fmt::format("the program prints {} right, yet calls none of {}: hpclab cannot "
                                             "believe a number the program did not measure (held for a person)",
                                             need.what, fmt::join(need.prefixes, ", ")));
    }
}

}  // namespace

ProgramJudgement judge_program(const ProgramOutput& printed, const std::map<std::string, std::string>& properties,
                               const KernelTimes& measured, const ProgramRules& rules,
                               const std::set<std::string>& calls)
{
    ProgramJudgement out;
    Judging j {out};
    const bool properties_ok = judge_properties(printed, properties, j);
    // The host times, read with any clock: held to hpclab's numbers alone.
    judge_launch_time(printed.launch, measured, rules, j);
    judge_kernel_time(kTimeSyncLabel, printed.sync, measured, rules, j);
    const bool events_ok = judge_kernel_time(kTimeEventsLabel, printed.events, measured, rules, j);
    for (const auto& line : printed.unreadable) j.wrong(fmt::format("a line hpclab cannot read: \"{}\"", line));
    bool unmeasured = false;
    judge_technique(calls, {{properties_ok, kPropertiesCall}, {events_ok, kEventsCall}}, j, unmeasured);
    out.verdict = unmeasured ? Verdict::tampering : j.any_wrong ? Verdict::wrong_answer : Verdict::pass;
    return out;
}

}  // namespace hpclab
