#include "check/program_check.h"

#include "course/program_output.h"
#include "gpu/device_properties.h"
#include "gpu/gpu_turns.h"
#include "process/process.h"
#include "run/run_recipe.h"
#include "process/sandbox.h"
#include "util/work_dir.h"
#include "wire/exchange.h"

#include <fmt/format.h>

#include <chrono>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// Past this the program's output is not kept: the lines hpclab reads are a
// few hundred bytes.
constexpr std::size_t kOutputLimitBytes = 64u << 10;

// The student's program, as every submission runs (process/sandbox.h
// submission_sandbox): its own work folder, the GPU of the check alone
// visible, on the timed CPUs (it runs with the GPU alone).
ProcessSpec student_run(const LabInfo& lab, const GpuInfo& gpu, const fs::path& program, const fs::path& work_dir)
{
    ProcessSpec ps;
    ps.argv = {program.string()};
    ps.cwd = work_dir;
    ps.wall_limit_s = wall_limit_s(lab, RunUse::plain);
    ps.output_limit = kOutputLimitBytes;
    ps.file_size_limit_bytes = kSubmissionFileLimitBytes;
    ps.set_env = cuda_env(gpu.visible_as(), lab.device_max_connections);
    ps.cpus = timing_cpus();
    ps.sandbox = submission_sandbox({.course_root = lab.lab_dir.parent_path().parent_path(),
                                     .program = program,
                                     .work_dir = work_dir,
                                     .gpu_minor = gpu.minor,
                                     .gpu_env = ps.set_env});
    return ps;
}

// The process's own end, before anything it printed is read.
std::optional<Verdict> verdict_of_process(const ProcessResult& r, const LabInfo& lab, std::string& message)
{
    if (!r.started) {
        message = "the program could not start: " + r.start_error;
        return Verdict::grader_error;
    }
    if (r.timed_out) {
        message = fmt::format("the program was still running after {} s and was stopped", lab.wall_limit_s);
        return Verdict::time_limit;
    }
    if (!r.limit_message.empty()) {
        message = r.limit_message;
        return Verdict::resource_limit;
    }
    if (r.file_size_limit) {
        message = fmt::format("the program wrote a file past the limit of {} MiB", kSubmissionFileLimitBytes >> 20);
        return Verdict::resource_limit;
    }
    if (r.signal != 0) {
        message = fmt::format("the program was ended by signal {}", r.signal);
        return Verdict::crash;
    }
    if (r.exit_code == wire::kExitStudentCudaError) {
        message = "the program stopped at a CUDA error (cudaSafeCall or cudaCheckError):\n" + r.err;
        return Verdict::cuda_error;
    }
    if (r.exit_code != 0) {
        message = fmt::format("the program ended with status {} (main should return 0 once it printed everything)",
                              r.exit_code);
        return Verdict::crash;
    }
    if (r.out_truncated) {
        message = fmt::format("the program printed more than {} KiB", kOutputLimitBytes >> 10);
        return Verdict::output_limit;
    }
    return std::nullopt;
}

// hpclab's timing, then the student's run, with the GPU alone for both: the
// two measure the same kernel on the same quiet GPU.
void run_on_gpu(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, GpuTurns* shared, ProgramCheck& c)
{
    const DeviceProperties properties = query_device_properties(gpu.index);
    if (!properties.present) {
        c.message = "hpclab could not query the GPU itself: " + properties.why_not;
        return;
    }
    const auto timer = build_kernel_timer(tc, lab, c.message);
    if (!timer) return;
    std::optional<GpuTurns> own;
    const auto turn = GpuTurns::alone(shared ? shared : &own.emplace(gpu.uuid));
    const KernelTiming timing = measure_lab_kernel(*timer, lab, gpu);
    if (!timing.times) {
        c.message = timing.why_not;
        return;
    }
    c.measured = timing.times;
    const WorkDir work("whole-program");
    ProcessSpec ps = student_run(lab, gpu, c.build.program, work.path());
    const ProcessResult r = run_submission(ps, 0);  // the one path of every student program (run_recipe.h)
    c.printed = r.out;
    c.printed_err = r.err;
    if (const auto ended = verdict_of_process(r, lab, c.message)) {
        c.verdict = *ended;
        return;
    }
    c.judgement = judge_program(read_program_output(r.out), properties.values, *c.measured, lab.program,
                                c.build.calls);
    c.verdict = c.judgement->verdict;
}

}  // namespace

ProgramCheck check_program_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const fs::path& source,
                               const std::string& variant, GpuTurns* turns, std::shared_future<StartedBuild> started)
{
    const auto t0 = std::chrono::steady_clock::now();
    ProgramCheck c;
    c.lab = &lab;
    c.source = source;
    c.build = started.valid() ? started.get().build : build_lab_program(tc, lab, source, variant);
    if (!c.build.ok) c.verdict = c.build.setup_problem ? Verdict::grader_error : Verdict::compile_error;
    else if (!gpu.present) {
        c.verdict = Verdict::not_run;
        c.message = gpu.why_not;
    } else
        run_on_gpu(tc, gpu, lab, turns, c);
    c.total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return c;
}

LabCheck as_lab_check(const ProgramCheck& c, const GpuInfo& gpu, std::uint64_t seed)
{
    LabCheck out {.lab = c.lab, .source = c.source, .build = c.build, .gpu = gpu, .seed = seed};
    std::string why = c.message;
    if (c.verdict == Verdict::compile_error || (!c.build.ok && why.empty())) why = c.build.diagnostics;
    if (c.judgement)
        for (const auto& p : c.judgement->problems) why += (why.empty() ? "" : "\n") + p;
    for (const TaskInfo& task : c.lab->tasks) {
        TaskCheck t;
        t.task = &task;
        t.verdict.task = task.id;
        t.verdict.verdict = c.verdict;
        if (c.verdict != Verdict::pass) t.verdict.reason = Finding {c.verdict, why, "", ""};
        out.tasks.push_back(std::move(t));
    }
    out.overall = c.verdict;
    out.compile_s = c.build.seconds;  // the rest is one run of hpclab's timing program and one of the student's
    out.total_s = c.total_s;
    out.whole_program = std::make_shared<const ProgramCheck>(c);
    return out;
}

}  // namespace hpclab
