#include "run/gpu_health.h"

#include "hpclab_build_config.h"
#include "run/run_recipe.h"
#include "process/process.h"
#include "util/keyed_hash.h"
#include "util/text_file.h"
#include "util/timeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <fstream>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// Device memory a check may leave in use without blame: the driver keeps
// some for itself for a moment after a context ends.
constexpr std::uint64_t kMemorySlackBytes = 256ull << 20;
constexpr double kSettleSeconds = 5;
constexpr double kCanaryLimitSeconds = 15;
constexpr double kCanaryRetryLimitSeconds = 60;
constexpr double kQuietWaitSeconds = 60;

// The canary built once per toolchain, next to the lab programs.
std::optional<fs::path> canary_program(const Toolchain& tc, std::string& why)
{
    const fs::path source = fs::path(HPCLAB_SOURCE_DIR) / "grader" / "run" / "canary.cu";
    const std::string key = read_text_file(source).value_or("") + tc.nvcc.string() + tc.architectures;
    const std::string stamp = fmt::format("{:016x}", keyed_hash(std::as_bytes(std::span(key)), 0x63616E61ull));
    const fs::path dir = tc.cache_dir / "canary" / stamp;
    const fs::path program = dir / "canary";
    std::error_code ec;
    if (fs::exists(program, ec)) return program;
    fs::create_directories(dir, ec);
    ProcessSpec build;
    build.argv = {tc.nvcc.string(), "-ccbin", tc.host_compiler.string(), "-O2", "-cudart=static"};
    for (const auto& f : tc.arch_flags()) build.argv.push_back(f);
    build.argv.insert(build.argv.end(), {source.string(), "-o", (dir / "canary.tmp").string()});
    build.wall_limit_s = 120;
    const ProcessResult r = run_process(build);
    fs::rename(dir / "canary.tmp", program, ec);
    if (!r.exited() || r.exit_code != 0 || ec) {
        why = "the canary does not build: " + r.err.substr(0, 300);
        return std::nullopt;
    }
    return program;
}

// The usage once the check's programs are gone, waiting for them a moment.
std::optional<GpuUsage> settled_usage(const GpuInfo& gpu, const GpuBaseline& before)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kSettleSeconds);
    std::optional<GpuUsage> now;
    do {
        now = gpu_usage_now(gpu.uuid);
        const bool settled = now && now->own_pids.empty() &&
                             (!before.usage || now->anyone_else() > 0 ||
                              now->used_bytes <= before.usage->used_bytes + kMemorySlackBytes);
        if (!now || settled) return now;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } while (std::chrono::steady_clock::now() < until);
    return now;
}

// Until no process but this one's uses the GPU, or `within_s` is over.
void wait_for_quiet_gpu(const GpuInfo& gpu, double within_s)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(within_s);
    for (auto now = gpu_usage_now(gpu.uuid); now && (now->anyone_else() > 0 || !now->own_pids.empty());
         now = gpu_usage_now(gpu.uuid)) {
        if (std::chrono::steady_clock::now() >= until) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

}  // namespace

GpuBaseline gpu_baseline(const GpuInfo& gpu)
{
    if (!gpu.present) return {};
    // HPCLAB_PROFILE=canary: no watch (no NVML event set made), the canary
    // after every check as before 2026-11-30, to measure what the watch saves.
    return {.usage = gpu_usage_now(gpu.uuid),
            .errors = profile_asked("canary") ? nullptr : std::make_shared<GpuErrorWatch>(gpu.uuid),
            .stopped_before = programs_stopped()};
}

std::string reason_for_canary(const std::optional<GpuErrors>& driver_errors, std::uint64_t programs_stopped_since)
{
    if (!driver_errors) return "the driver's error reports cannot be watched here";
    std::vector<std::string> hurt;
    for (const unsigned long long xid : driver_errors->xids)
        if (xid != 13 && xid != 31 && xid != 43) hurt.push_back(fmt::format("Xid {}", xid));
    if (driver_errors->double_bit_ecc > 0)
        hurt.push_back(fmt::format("{} double-bit ECC error(s)", driver_errors->double_bit_ecc));
    if (!hurt.empty()) return fmt::format("the driver reported {}", fmt::join(hurt, ", "));
    if (programs_stopped_since > 0)
        return fmt::format("{} program(s) ended by a signal or stopped by hpclab", programs_stopped_since);
    return "";
}

GpuHealth gpu_health_after(const Toolchain& tc, const GpuInfo& gpu, const GpuBaseline& before, GpuTurns* turns)
{
    if (!gpu.present || !tc.available()) return {};
    if (const auto now = settled_usage(gpu, before)) {
        if (!now->own_pids.empty())
            return {false, fmt::format("{} process(es) of this check still hold the GPU (pid {})", now->own_pids.size(),
                                       now->own_pids.front())};
        // Memory is ours to explain only while nobody else used the GPU.
        const bool alone = before.usage && before.usage->anyone_else() == 0 && now->anyone_else() == 0;
        if (alone && now->used_bytes > before.usage->used_bytes + kMemorySlackBytes)
            return {false, fmt::format("{:.2f} GB of GPU memory stayed in use after the check ({:.2f} GB before)",
                                       now->used_bytes / 1e9, before.usage->used_bytes / 1e9)};
    }
    const std::string because = reason_for_canary(before.errors ? before.errors->reported() : std::nullopt,
                                                  programs_stopped() - before.stopped_before);
    if (because.empty()) return {};
    const auto turn = GpuTurns::shared(turns);
    std::string why;
    const auto canary = canary_program(tc, why);
    if (!canary) return {true, why, because};  // cannot tell: the GPU is not blamed for hpclab's build
    const auto run_canary = [&](double limit_s) {
        ProcessSpec run;
        run.argv = {canary->string()};
        run.wall_limit_s = limit_s;
        run.set_env = cuda_env(gpu.visible_as());
        const ProcessResult r = run_process(run);
        if (r.exited() && r.exit_code == 0 && r.out.find("canary ok") != std::string::npos) return std::string();
        return r.timed_out ? std::string("it hung") : r.out + r.err;
    };
    GpuHealth health = canary_health(run_canary, [&] { wait_for_quiet_gpu(gpu, kQuietWaitSeconds); });
    health.canary_because = because;
    return health;
}

GpuHealth canary_health(const std::function<std::string(double limit_s)>& run_canary,
                        const std::function<void()>& wait_for_quiet)
{
    // A GPU busy with other programs can keep a new process waiting for its
    // context longer than the first limit (contexts are made one at a time:
    // seen on the H100 with eight checks at once). One failure is therefore
    // no proof: the canary runs again, once the GPU is quiet or the wait is
    // over, with a longer limit. A GPU that is really broken fails twice.
    std::string failure = run_canary(kCanaryLimitSeconds);
    if (failure.empty()) return {};
    wait_for_quiet();
    failure = run_canary(kCanaryRetryLimitSeconds);
    if (failure.empty()) return {};
    return {false, "the canary kernel failed twice: " + failure};
}

std::optional<std::string> out_of_service(const fs::path& dir, const GpuInfo& gpu)
{
    if (gpu.uuid.empty()) return std::nullopt;
    return read_text_file(dir / gpu.uuid);
}

void take_out_of_service(const fs::path& dir, const GpuInfo& gpu, const std::string& why)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(dir / (gpu.uuid.empty() ? "unknown-gpu" : gpu.uuid)) << why << '\n';
}

}  // namespace hpclab
