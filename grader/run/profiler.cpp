#include "run/profiler.h"

#include "util/csv.h"
#include "util/program_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <system_error>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// The counters, by ncu's names for compute capability 7.0 and later (the
// "raw" page of ncu 2025, the version beside nvcc 13.0): what each measure
// of course/profile_rules.h is made of.
constexpr std::string_view kDuration = "gpu__time_duration.sum";
constexpr std::string_view kGridBlocks = "launch__grid_size";
constexpr std::string_view kThreadInst = "smsp__thread_inst_executed.sum";
constexpr std::string_view kWarpInst = "smsp__inst_executed.sum";
constexpr std::string_view kIssued = "smsp__inst_issued.sum";
constexpr std::string_view kSmActive = "sm__cycles_active.avg";
constexpr std::string_view kSmElapsed = "sm__cycles_elapsed.avg";
constexpr std::string_view kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr std::string_view kDramRead = "dram__bytes_read.sum";
constexpr std::string_view kDramWrite = "dram__bytes_write.sum";
constexpr std::string_view kLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr std::string_view kLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr std::string_view kStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr std::string_view kStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr std::string_view kSharedLoadPasses = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr std::string_view kSharedStorePasses = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr std::string_view kSharedLoads = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr std::string_view kSharedStores = "smsp__sass_inst_executed_op_shared_st.sum";
constexpr std::string_view kAtomics = "smsp__sass_inst_executed_op_global_atom.sum";
constexpr std::string_view kReductions = "smsp__sass_inst_executed_op_global_red.sum";

// Why warps wait, each a ratio per issued instruction; the top one is the
// measure top_stall, named without ncu's prefix and suffix.
constexpr std::string_view kStallPrefix = "smsp__average_warps_issue_stalled_";
constexpr std::string_view kStallSuffix = "_per_issue_active.ratio";
constexpr std::string_view kStallReasons[] = {
    "barrier", "long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle", "math_pipe_throttle", "wait",
    "not_selected", "membar", "drain", "no_instruction", "branch_resolving", "dispatch_stall", "imc_miss",
    "tex_throttle", "sleeping", "misc"};

std::string stall_metric(std::string_view reason)
{
    return std::string(kStallPrefix) + std::string(reason) + std::string(kStallSuffix);
}

std::vector<std::string> metric_names()
{
    std::vector<std::string> out;
    for (std::string_view m : {kDuration, kGridBlocks, kThreadInst, kWarpInst, kIssued, kSmActive, kSmElapsed,
                               kOccupancy, kDramRead, kDramWrite, kLoadSectors, kLoadRequests, kStoreSectors,
                               kStoreRequests, kSharedLoadPasses, kSharedStorePasses, kSharedLoads, kSharedStores,
                               kAtomics, kReductions})
        out.emplace_back(m);
    for (std::string_view r : kStallReasons) out.push_back(stall_metric(r));
    return out;
}

// A regular expression that matches exactly these names (mangled names are
// letters, digits and _, but a character that means something is escaped).
std::string exact_names(const std::vector<std::string>& kernels)
{
    std::string out = "regex:^(";
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (i) out += '|';
        for (char c : kernels[i]) {
            if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
            out += c;
        }
    }
    return out + ")$";
}

// A number as ncu's raw page writes it ("1234", "1,234", "12.5"); nothing
// for "n/a" or an empty cell.
std::optional<double> number_of(std::string cell)
{
    cell.erase(std::remove(cell.begin(), cell.end(), ','), cell.end());
    if (cell.empty()) return std::nullopt;
    std::size_t used = 0;
    try {
        const double v = std::stod(cell, &used);
        if (used == cell.size()) return v;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

// ncu's own messages ("==ERROR== ...", "==WARNING== No kernels were
// profiled."), the first few, in one line each.
std::string tool_messages(std::string_view log, std::string_view tag)
{
    std::istringstream in {std::string(log)};
    std::string line, out;
    for (int kept = 0; std::getline(in, line) && kept < 3;)
        if (line.rfind(tag, 0) == 0) out += (kept++ ? "; " : "") + line.substr(tag.size());
    return out;
}

}  // namespace

std::string NcuInstall::name() const
{
    std::string version = folder.filename().string();
    if (version.rfind("nsight-compute-", 0) == 0) version.erase(0, std::string("nsight-compute-").size());
    if (version.empty() || !std::isdigit(static_cast<unsigned char>(version[0]))) return ncu.string();
    return "ncu " + version;
}

namespace {

// The newest folder of `parent` whose name starts with `prefix` and that holds an ncu.
std::optional<NcuInstall> newest_install(const fs::path& parent, std::string_view prefix)
{
    std::error_code ec;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind(prefix, 0) == 0 && fs::exists(it->path() / "ncu", ec))
            found.push_back(it->path());
    if (found.empty()) return std::nullopt;
    const fs::path newest = *std::max_element(found.begin(), found.end());
    return NcuInstall {newest / "ncu", newest};
}

}  // namespace

std::optional<NcuInstall> find_ncu(const fs::path& nvcc)
{
    std::error_code ec;
    const fs::path cuda = nvcc.empty() ? fs::path {} : fs::weakly_canonical(nvcc, ec).parent_path().parent_path();
    if (!cuda.empty())
        if (auto own = newest_install(cuda, "nsight-compute")) return own;
    if (auto opt = newest_install("/opt/nvidia", "nsight-compute")) return opt;     // nsight-compute-<version>/
    if (auto opt = newest_install("/opt/nvidia/nsight-compute", "")) return opt;  // nsight-compute/<version>/
    if (!cuda.empty())
        if (const fs::path beside = cuda / "bin" / "ncu"; fs::exists(beside, ec)) return NcuInstall {beside, {}};
    if (auto on_path = find_on_path("ncu")) return NcuInstall {*on_path, {}};
    return std::nullopt;
}

std::vector<std::string> profiler_command(const fs::path& ncu, const std::vector<std::string>& kernels,
                                          const fs::path& log_file)
{
    std::string metrics;
    for (const std::string& m : metric_names()) metrics += (metrics.empty() ? "" : ",") + m;
    return {ncu.string(),
            "--csv", "--page", "raw", "--print-units", "base",
            "--kernel-name-base", "mangled", "--kernel-name", exact_names(kernels),
            "--launch-count", std::to_string(kProfiledLaunches),
            // The kernels at the clocks they are timed at (ncu's default
            // locks them to the base clock): their time is compared with
            // the call's on hpclab's clock (kernel_share_pct).
            "--clock-control", "none",
            "--metrics", metrics,
            "--log-file", log_file.string()};
}

NcuReading read_ncu_log(std::string_view log)
{
    NcuReading out;
    if (const std::string errors = tool_messages(log, "==ERROR== "); !errors.empty()) {
        out.problem = "ncu: " + errors;
        return out;
    }
    const std::size_t header = log.find("\"ID\",");
    if (header == std::string_view::npos) {
        const std::string warned = tool_messages(log, "==WARNING== ");
        out.problem = warned.empty() ? "ncu wrote no table of counters" : "ncu: " + warned;
        return out;
    }
    const std::vector<CsvRow> rows = parse_csv(log.substr(header));
    const CsvRow& names = rows.front();
    const auto kernel_column = std::find(names.begin(), names.end(), "Kernel Name") - names.begin();
    for (std::size_t r = 2; r < rows.size(); ++r) {  // row 1: the units
        if (rows[r].size() != names.size()) continue;
        KernelCounters k {kernel_column < static_cast<long>(names.size()) ? rows[r][kernel_column] : "", {}};
        for (std::size_t c = 0; c < names.size(); ++c)
            if (const auto v = number_of(rows[r][c]); v && names[c].find("__") != std::string::npos)
                k.counters[names[c]] = *v;
        out.launches.push_back(std::move(k));
    }
    if (out.launches.empty()) out.problem = "ncu's table has no launch";
    for (const std::string& m : metric_names())
        if (out.problem.empty() && !out.launches.front().counters.count(m))
            out.problem = "ncu gave no value of " + m;
    return out;
}

namespace {

double sum_of(const std::vector<KernelCounters>& launches, std::string_view metric)
{
    double s = 0;
    for (const KernelCounters& k : launches)
        if (const auto v = k.counters.find(std::string(metric)); v != k.counters.end()) s += v->second;
    return s;
}

// Per launch weighted by its duration: a rate of the whole call.
double time_weighted(const std::vector<KernelCounters>& launches, std::string_view metric)
{
    double s = 0, t = 0;
    for (const KernelCounters& k : launches) {
        const auto v = k.counters.find(std::string(metric));
        const auto d = k.counters.find(std::string(kDuration));
        if (v == k.counters.end() || d == k.counters.end()) continue;
        s += v->second * d->second;
        t += d->second;
    }
    return t > 0 ? s / t : 0;
}

void ratio_into(ProfileValues& v, std::string_view measure, double num, double den, double scale = 1)
{
    if (den > 0) v.numbers[std::string(measure)] = scale * num / den;
}

// The stall reason with the most warp-cycles: each launch's ratio per issued
// instruction times its issued instructions.
std::optional<std::string> top_stall(const std::vector<KernelCounters>& launches)
{
    double best = 0;
    std::optional<std::string> out;
    for (std::string_view reason : kStallReasons) {
        double cycles = 0;
        for (const KernelCounters& k : launches) {
            const auto r = k.counters.find(stall_metric(reason));
            const auto n = k.counters.find(std::string(kIssued));
            if (r != k.counters.end() && n != k.counters.end()) cycles += r->second * n->second;
        }
        if (cycles > best) best = cycles, out = std::string(reason);
    }
    return out;
}

}  // namespace

ProfileValues profile_values(const std::vector<KernelCounters>& launches, const CallBasis& basis)
{
    ProfileValues v;
    if (launches.empty()) return v;
    ratio_into(v, "lanes_per_warp", sum_of(launches, kThreadInst), sum_of(launches, kWarpInst));
    ratio_into(v, "sm_busy_pct", sum_of(launches, kSmActive), sum_of(launches, kSmElapsed), 100);
    v.numbers["occupancy_pct"] = time_weighted(launches, kOccupancy);
    ratio_into(v, "load_sectors_per_request", sum_of(launches, kLoadSectors), sum_of(launches, kLoadRequests));
    ratio_into(v, "store_sectors_per_request", sum_of(launches, kStoreSectors), sum_of(launches, kStoreRequests));
    ratio_into(v, "shared_wavefronts_per_request", sum_of(launches, kSharedLoadPasses) + sum_of(launches, kSharedStorePasses),
               sum_of(launches, kSharedLoads) + sum_of(launches, kSharedStores));
    ratio_into(v, "atomics_per_block", sum_of(launches, kAtomics) + sum_of(launches, kReductions),
               sum_of(launches, kGridBlocks));
    // A call's whole work is known only when every launch of it was profiled.
    if (launches.size() < static_cast<std::size_t>(kProfiledLaunches)) {
        ratio_into(v, "dram_bytes_per_ideal", sum_of(launches, kDramRead) + sum_of(launches, kDramWrite), basis.ideal_bytes);
        ratio_into(v, "kernel_share_pct", sum_of(launches, kDuration) / 1e6, basis.call_ms, 100);
    }
    if (auto stall = top_stall(launches)) v.names["top_stall"] = std::move(*stall);
    return v;
}

}  // namespace hpclab
