#include "run/kernel_timer.h"

#include "course/program_output.h"
#include "hpclab_build_config.h"
#include "process/process.h"
#include "run/run_recipe.h"
#include "util/keyed_hash.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <span>

namespace hpclab {

namespace fs = std::filesystem;

std::optional<fs::path> build_kernel_timer(const Toolchain& tc, const LabInfo& lab, std::string& why)
{
    const fs::path source = fs::path(HPCLAB_SOURCE_DIR) / "grader" / "run" / "kernel_timer.cu";
    const fs::path header = lab.lab_dir / lab.program.kernel_header;
    const auto flags = tc.compile_flags(lab);
    std::string key = read_text_file(source).value_or("") + '\0' + read_text_file(header).value_or("") + '\0' +
                      read_text_file(tc.common_include / "hpc.h").value_or("") + '\0' + tc.nvcc.string();
    for (const auto& f : flags) key += '\0' + f;
    const std::string stamp = fmt::format("{:016x}", keyed_hash(std::as_bytes(std::span(key)), 0x74696D65ull));
    const fs::path dir = tc.cache_dir / lab.id / "kernel-timer" / stamp;
    const fs::path program = dir / "kernel-timer";
    std::error_code ec;
    if (fs::exists(program, ec)) return program;
    fs::create_directories(dir, ec);
    // Built under a name of its own, then renamed: two checks at once (a
    // class's grading) never run a half-written program.
    static std::atomic<unsigned> builds {0};
    const fs::path tmp = dir / fmt::format("kernel-timer.tmp-{}-{}", getpid(), builds++);
    ProcessSpec build;
    build.argv = {tc.nvcc.string()};
    build.argv.insert(build.argv.end(), flags.begin(), flags.end());
    build.argv.insert(build.argv.end(), {"-DKERNEL_HEADER=" + lab.program.kernel_header, "-cudart=static",
                                         source.string(), "-o", tmp.string()});
    build.wall_limit_s = 300;
    build.cpus = untimed_cpus();
    const ProcessResult r = run_process(build);
    if (!r.exited() || r.exit_code != 0) {
        fs::remove(tmp, ec);
        why = "hpclab's timing program of the lab's kernel does not build: " + (r.err + r.out).substr(0, 600);
        return std::nullopt;
    }
    fs::rename(tmp, program, ec);
    if (ec) {
        why = fmt::format("cannot move the timing program into {}: {}", program.string(), ec.message());
        return std::nullopt;
    }
    return program;
}

KernelTiming measure_lab_kernel(const fs::path& timer, const LabInfo& lab, const GpuInfo& gpu)
{
    KernelTiming out;
    ProcessSpec run;
    run.argv = {timer.string()};
    run.wall_limit_s = wall_limit_s(lab, RunUse::plain);  // the table of a run's limits: run_recipe.h
    run.set_env = cuda_env(gpu.visible_as());
    run.cpus = timing_cpus();
    const ProcessResult r = run_process(run);
    const ProgramOutput printed = read_program_output(r.out);
    if (!r.exited() || r.exit_code != 0 || !printed.launch || !printed.sync || !printed.events) {
        out.why_not = fmt::format("hpclab's timing program of the lab's kernel failed ({}): {}",
                                  r.timed_out ? "it ran past its limit" : fmt::format("status {}", r.exit_code),
                                  (r.err + r.out).substr(0, 600));
        return out;
    }
    out.times = KernelTimes {printed.events->seconds, printed.sync->seconds, printed.launch->seconds};
    return out;
}

}  // namespace hpclab
