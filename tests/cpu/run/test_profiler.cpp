// Nsight Compute's log read back (run/profiler.h): the launches of its CSV
// table, its refusals as a problem (never a number), and the measures made
// from the counters.
#include "run/profiler.h"
#include "util/text.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>

using namespace hpclab;

namespace {

// A log as ncu 2025 writes it with --csv --page raw --print-units base: its
// own lines, the program's, the header row, the units row, a row per launch
// (numbers grouped by thousands, in quotes).
std::string log_of(const std::vector<std::pair<std::string, std::string>>& columns, int launches = 1)
{
    std::string header = "\"ID\",\"Kernel Name\"", units = "\"\",\"\"", out;
    for (const auto& [name, value] : columns) header += ",\"" + name + "\"", units += ",\"\"";
    out = "==PROF== Connected to process 26 (/work/x)\nprogram output\n==PROF== Disconnected from process 26\n";
    out += header + "\n" + units + "\n";
    for (int i = 0; i < launches; ++i) {
        std::string row = fmt::format("\"{}\",\"_Z3addPKiS0_Pii\"", i);
        for (const auto& c : columns) row += ",\"" + c.second + "\"";
        out += row + "\n";
    }
    return out;
}

// Every counter the profiler asks for, from the command it makes.
std::vector<std::string> asked_metrics()
{
    const auto cmd = profiler_command("/usr/bin/ncu", {"_Z3addPKiS0_Pii"}, "/tmp/log");
    const auto at = std::find(cmd.begin(), cmd.end(), "--metrics");
    REQUIRE(at != cmd.end());
    return split(*(at + 1), ',');
}

// A launch of blocks of one thread: one lane of 32, one multiprocessor in a hundred idle.
std::vector<std::pair<std::string, std::string>> one_thread_blocks()
{
    std::vector<std::pair<std::string, std::string>> c;
    for (const std::string& m : asked_metrics()) c.emplace_back(m, "0");
    const auto set = [&](const std::string& m, const std::string& v) {
        for (auto& [name, value] : c)
            if (name == m) value = v;
    };
    set("gpu__time_duration.sum", "644,928");
    set("launch__grid_size", "1,048,576");
    set("smsp__thread_inst_executed.sum", "9,437,184");
    set("smsp__inst_executed.sum", "9,437,184");
    set("smsp__inst_issued.sum", "9,437,184");
    set("sm__cycles_active.avg", "958");
    set("sm__cycles_elapsed.avg", "1,000");
    set("sm__warps_active.avg.pct_of_peak_sustained_active", "8.5");
    set("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "1,048,576");
    set("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "1,048,576");
    set("dram__bytes_read.sum", "4,194,304");
    set("dram__bytes_write.sum", "4,194,304");
    set("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "12.5");
    set("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "0.5");
    return c;
}

}  // namespace

TEST_CASE("profiler: the command profiles only the kernels named, into its log, at the clocks timed")
{
    const auto cmd = profiler_command("/usr/bin/ncu", {"_Z3addPKiS0_Pii", "_Z1kv"}, "/tmp/log");
    const auto value_of = [&](const std::string& opt) {
        const auto at = std::find(cmd.begin(), cmd.end(), opt);
        REQUIRE(at != cmd.end());
        return *(at + 1);
    };
    CHECK(value_of("--kernel-name") == "regex:^(_Z3addPKiS0_Pii|_Z1kv)$");
    CHECK(value_of("--kernel-name-base") == "mangled");
    CHECK(value_of("--log-file") == "/tmp/log");
    CHECK(value_of("--clock-control") == "none");
    CHECK(value_of("--launch-count") == std::to_string(kProfiledLaunches));
    // A character that means something in a regular expression stands for itself.
    const auto odd = profiler_command("/usr/bin/ncu", {"a.b$c"}, "/tmp/log");
    CHECK(std::find(odd.begin(), odd.end(), "regex:^(a\\.b\\$c)$") != odd.end());
}

TEST_CASE("profiler: ncu's table reads into launches, numbers grouped by thousands")
{
    const NcuReading r = read_ncu_log(log_of(one_thread_blocks(), 2));
    REQUIRE(r.problem.empty());
    REQUIRE(r.launches.size() == 2);
    CHECK(r.launches[0].kernel == "_Z3addPKiS0_Pii");
    CHECK(r.launches[0].counters.at("gpu__time_duration.sum") == doctest::Approx(644928));
}

TEST_CASE("profiler: what ncu refuses or leaves out is a problem, never a number")
{
    CHECK(read_ncu_log("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                       "Performance Counters\n")
              .problem.find("ERR_NVGPUCTRPERM") != std::string::npos);
    CHECK(read_ncu_log("==PROF== Connected\n==WARNING== No kernels were profiled.\n").problem.find("No kernels") !=
          std::string::npos);
    CHECK(read_ncu_log("").problem == "ncu wrote no table of counters");
    auto columns = one_thread_blocks();
    columns.erase(columns.begin() + 3);  // a counter this ncu does not know
    CHECK(read_ncu_log(log_of(columns)).problem.find("gave no value of") != std::string::npos);
    columns = one_thread_blocks();
    columns[2].second = "n/a";
    CHECK(read_ncu_log(log_of(columns)).problem.find("gave no value of " + columns[2].first) != std::string::npos);
}

TEST_CASE("profiler: the measures of blocks of one thread")
{
    const NcuReading r = read_ncu_log(log_of(one_thread_blocks(), 2));
    REQUIRE(r.problem.empty());
    const ProfileValues v = profile_values(r.launches, {.ideal_bytes = 4194304, .call_ms = 2.0});
    CHECK(v.numbers.at("lanes_per_warp") == doctest::Approx(1));
    CHECK(v.numbers.at("sm_busy_pct") == doctest::Approx(95.8));
    CHECK(v.numbers.at("occupancy_pct") == doctest::Approx(8.5));
    CHECK(v.numbers.at("load_sectors_per_request") == doctest::Approx(1));
    CHECK(v.numbers.at("dram_bytes_per_ideal") == doctest::Approx(4));       // two launches of 8 MiB each
    CHECK(v.numbers.at("kernel_share_pct") == doctest::Approx(64.4928));  // 2 x 0.645 ms of a 2 ms call
    CHECK(v.numbers.at("atomics_per_block") == doctest::Approx(0));
    CHECK(v.names.at("top_stall") == "long_scoreboard");
    // No stores, no shared memory: those measures do not apply, and are not made up.
    CHECK_FALSE(v.knows("store_sectors_per_request"));
    CHECK_FALSE(v.knows("shared_wavefronts_per_request"));
}

TEST_CASE("profiler: a call cut at the launches profiled has no whole-call measures")
{
    const NcuReading r = read_ncu_log(log_of(one_thread_blocks(), kProfiledLaunches));
    const ProfileValues v = profile_values(r.launches, {.ideal_bytes = 4194304, .call_ms = 2.0});
    CHECK(v.knows("lanes_per_warp"));
    CHECK_FALSE(v.knows("kernel_share_pct"));
    CHECK_FALSE(v.knows("dram_bytes_per_ideal"));
}

TEST_CASE("profiler: ncu's own log of kernels with one known profile each (an H200, ncu 2025.3)")
{
    // tests/data/ncu/probe.cu under ncu with the profiler's counters (device call 19c).
    const auto log = read_text_file(std::filesystem::path(HPCLAB_TEST_DATA) / "ncu" / "probe-h200.csv");
    REQUIRE(log);
    const NcuReading r = read_ncu_log(*log);
    REQUIRE_MESSAGE(r.problem.empty(), r.problem);
    REQUIRE(r.launches.size() == 6);
    const auto of = [&](std::size_t i) { return profile_values({r.launches[i]}, {}); };
    CHECK(r.launches[0].kernel.rfind("copy_coalesced(", 0) == 0);  // ncu prints names demangled
    CHECK(of(0).numbers.at("load_sectors_per_request") == doctest::Approx(4));
    CHECK(of(0).numbers.at("lanes_per_warp") == doctest::Approx(32));
    CHECK(of(1).numbers.at("load_sectors_per_request") == doctest::Approx(32));   // copy_strided
    CHECK(of(2).numbers.at("lanes_per_warp") == doctest::Approx(1));              // one_thread_blocks
    CHECK(of(2).numbers.at("occupancy_pct") < 20);
    CHECK(of(3).numbers.at("shared_wavefronts_per_request") > 16);                 // bank_conflicts
    CHECK(of(4).numbers.at("sm_busy_pct") < 2);                                    // atomics_one_block
    CHECK(of(4).numbers.at("atomics_per_block") > 1000);
    CHECK(of(5).names.at("top_stall") == "barrier");                               // barrier_heavy
    CHECK(of(5).numbers.at("shared_wavefronts_per_request") == doctest::Approx(1).epsilon(0.01));
}

TEST_CASE("profiler: the record names the ncu that measured, by its install's version")
{
    CHECK(NcuInstall {"/opt/nvidia/nsight-compute/2025.3.1/ncu", "/opt/nvidia/nsight-compute/2025.3.1"}.name() ==
          "ncu 2025.3.1");
    CHECK(NcuInstall {"/usr/local/cuda/nsight-compute-2025.3.1/ncu", "/usr/local/cuda/nsight-compute-2025.3.1"}.name() ==
          "ncu 2025.3.1");
    CHECK(NcuInstall {"/usr/bin/ncu", {}}.name() == "/usr/bin/ncu");
}
