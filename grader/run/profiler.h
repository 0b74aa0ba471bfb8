// Nsight Compute's command line (ncu, the toolkit's own, beside nvcc): one
// run of a slow file's program under it, a fixed set of hardware counters
// of the student's kernels, read back as the measures of
// course/profile_rules.h. It explains a verdict the timing already gave and
// decides none: ncu's counters are read by its library inside the student's
// process, whose code could rewrite them.
#pragma once

#include "course/profile_rules.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// Nsight Compute as installed: its ncu and the folder that holds it all.
// The toolkit's bin/ncu is a script that looks for that folder beside the
// toolkit or under /opt/nvidia, where a sandbox does not show it: the run
// calls the folder's own ncu, and the sandbox shows the folder (call 19c).
struct NcuInstall {
    std::filesystem::path ncu;
    std::filesystem::path folder;  // empty: not known (an ncu found on PATH alone)
    // "ncu 2025.3.1" (from the folder's name), or the path: which version
    // measured, in the record (the counters' names are this version's).
    std::string name() const;
};
// The toolkit's own (<cuda>/nsight-compute-<version>), else the newest under
// /opt/nvidia (nsight-compute-<version> or nsight-compute/<version>), else an ncu beside nvcc or on PATH; none if none.
std::optional<NcuInstall> find_ncu(const std::filesystem::path& nvcc);
// What a profile, or a test of one (--needs ncu), says when find_ncu found none.
inline constexpr std::string_view kNoNcu =
    "Nsight Compute (ncu) is not installed beside nvcc, under /opt/nvidia or on PATH";

// Launches profiled at most: each is replayed once per pass of counters (a
// few passes), and a call of the course launches one to three kernels.
inline constexpr int kProfiledLaunches = 16;

// The command prefix that runs a program under ncu, profiling the kernels
// named (mangled; the student's, from its machine code: none of the
// harness's), its report written as CSV into `log_file`, not into the
// program's output.
std::vector<std::string> profiler_command(const std::filesystem::path& ncu, const std::vector<std::string>& kernels,
                                          const std::filesystem::path& log_file);

// One profiled launch: its kernel and its counters by ncu's metric name.
struct KernelCounters {
    std::string kernel;
    std::map<std::string, double> counters;
};

// ncu's log: the launches, or what made it unusable (its error, no kernel
// profiled, a counter missing).
struct NcuReading {
    std::vector<KernelCounters> launches;
    std::string problem;  // non-empty: nothing measured can be trusted to mean what it says
};
NcuReading read_ncu_log(std::string_view log);

// What the measures compare with, known to the parent: the fewest bytes a
// call moves (TaskSpec's work) and the call's time on hpclab's clock.
struct CallBasis {
    double ideal_bytes = 0;  // 0: unknown
    double call_ms = 0;      // 0: unknown
};
ProfileValues profile_values(const std::vector<KernelCounters>& launches, const CallBasis& basis);

}  // namespace hpclab
