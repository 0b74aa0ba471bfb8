#include "lab_runs.h"

#include "util/shown_path.h"

#include <fmt/format.h>

#include <sstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

std::filesystem::path source_of(const LabInfo& lab, Variant v)
{
    return v == Variant::solution ? lab.solution_source() : lab.student_source();
}

const char* variant_name(Variant v) { return v == Variant::solution ? "solution" : "student"; }

std::string relative_to_root(const Context& ctx, const fs::path& p) { return shown_path(p, ctx.catalog().root()); }

std::optional<fs::path> build_program(Context& ctx, const LabInfo& lab, Variant v, bool quiet)
{
    return build_program(ctx, lab, source_of(lab, v), variant_name(v), quiet);
}

std::optional<fs::path> build_program(Context& ctx, const LabInfo& lab, const fs::path& src,
                                      const std::string& variant, bool quiet)
{
    const BuildResult b = build_and_report(ctx, lab, src, variant, quiet, {});
    if (!b.ok) return std::nullopt;
    return b.program;
}

BuildResult build_and_report(Context& ctx, const LabInfo& lab, const fs::path& src, const std::string& variant,
                             bool quiet, const std::vector<std::string>& link_libraries)
{
    const Toolchain& tc = ctx.toolchain();
    if (!tc.available()) throw UsageError("cannot build lab programs: " + tc.unavailable);
    if (!quiet) fmt::print("Building {} ... ", relative_to_root(ctx, src));
    std::fflush(stdout);
    const BuildResult b = build_lab_program(tc, lab, src, variant, link_libraries);
    if (!b.ok) {
        if (!quiet) fmt::print("failed\n");
        std::fflush(stdout);
        fmt::print(stderr, "\nCompile error in {}:\n{}", relative_to_root(ctx, src),
                   trim_diagnostics(b.diagnostics, ctx.catalog().root(), 40));
        return b;
    }
    if (!quiet) {
        if (b.cached) fmt::print("up to date\n");
        else fmt::print("done ({:.1f} s)\n", b.seconds);
        if (!b.diagnostics.empty())
            fmt::print(stderr, "Compiler warnings:\n{}", trim_diagnostics(b.diagnostics, ctx.catalog().root(), 20));
    }
    return b;
}

RunReport run_one(Context& ctx, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                  const Params& params, const RunOptions& options)
{
    const TaskSpec* spec = find_task_spec(lab.id, task.id);
    if (!spec) throw std::logic_error("lab " + lab.id + " task " + task.id + " has no spec compiled into hpclab");
    RunRequest req;
    req.lab = &lab;
    req.task = &task;
    req.spec = spec;
    req.params = params;
    req.program = program;
    req.ncalls = options.timed ? 1 + static_cast<std::uint32_t>(task.timing_reps) : 1;
    req.flush_l2 = options.timed;
    req.seed = options.seed ? *options.seed : fresh_seed();
    req.wall_limit_s = options.big ? lab.big_wall_limit_s : lab.wall_limit_s;
    req.gpu_memory_bytes = ctx.gpu().memory_bytes;
    req.fill_inputs = options.fill_inputs;
    return run_task(req);
}

std::string throughput(const RunReport& r)
{
    const double s = r.median_gpu_ms() / 1e3;
    if (s <= 0) return "-";
    return format_rate(r.work.bytes / s, r.work.flops / s);
}

std::string short_status(const RunReport& r)
{
    switch (r.status) {
    case RunStatus::completed: break;
    case RunStatus::no_gpu: return "NO GPU";
    case RunStatus::too_large: return "TOO LARGE";
    case RunStatus::could_not_start: return "NOT STARTED";
    case RunStatus::timed_out: return "TIMEOUT";
    case RunStatus::crashed: return "CRASH";
    case RunStatus::gpu_fault: return "GPU FAULT";
    case RunStatus::student_cuda_error: return "CUDA ERROR";
    case RunStatus::ended_early: return "EXITED";
    case RunStatus::harness_error: return "GRADER ERROR";
    case RunStatus::cancelled: return "CANCELLED";
    }
    const CallReport* bad = r.first_failure();
    if (!bad) return "OK";
    if (!bad->inputs_modified.empty()) return "INPUT MODIFIED";
    if (!bad->guards_damaged.empty() && bad->check.ok()) return "OUT OF BOUNDS";
    switch (bad->check.kind) {
    case CheckResult::Kind::unwritten: return "UNWRITTEN";
    case CheckResult::Kind::wrong_return: return "WRONG RETURN";
    case CheckResult::Kind::wrong_output: return "WRONG OUTPUT";
    default: return "WRONG";
    }
}

namespace {

// The program's own output, without the harness's marker lines, indented.
std::string printed_text(const std::string& raw, std::size_t max_lines)
{
    std::istringstream in(raw);
    std::string line, out;
    std::size_t n = 0, total = 0;
    while (std::getline(in, line)) {
        if (line.rfind("@@hpclab-returned-", 0) == 0) continue;
        if (line.empty() && out.empty()) continue;
        ++total;
        if (n < max_lines) {
            out += "    | " + line + '\n';
            ++n;
        }
    }
    if (total > n) out += fmt::format("    | ... ({} more lines)\n", total - n);
    return out;
}

}  // namespace

void print_run(std::FILE* out, const RunReport& r)
{
    const std::string printed = printed_text(r.process.out, 40);
    if (!printed.empty())
        fmt::print(out, "  Your code printed:{}\n{}", r.process.out_truncated ? " (cut at 1 MiB)" : "", printed);
    const std::string errors = printed_text(r.process.err, 20);
    if (!errors.empty()) fmt::print(out, "  On stderr:{}\n{}", r.process.err_truncated ? " (cut at 1 MiB)" : "", errors);

    if (!r.computed.empty()) fmt::print(out, "  Computed: {}\n", r.computed);
    if (r.status != RunStatus::completed) fmt::print(out, "  Check: {} - {}\n", short_status(r), r.status_message);
    for (std::size_t k = 0; k < r.calls.size(); ++k) {
        const CallReport& c = r.calls[k];
        if (!c.done) continue;
        if (c.passed()) continue;
        fmt::print(out, "  Check: {}{} - {}\n", short_status(r),
                   r.calls.size() > 1 ? fmt::format(" (call {} of {})", k + 1, r.calls.size()) : "", c.check.summary);
        for (const auto& d : c.check.details) fmt::print(out, "         {}\n", d);
        if (!c.guards_damaged.empty()) {
            std::string names;
            for (const auto& n : c.guards_damaged) names += (names.empty() ? "" : ", ") + n;
            fmt::print(out, "         your code wrote past the end (or before the start) of: {}\n", names);
        }
        if (c.launch_error)
            fmt::print(out, "         a kernel launch failed (CUDA error {}): check the launch configuration\n",
                       c.launch_error);
        return;
    }
    if (r.status != RunStatus::completed) return;
    const CallReport& first = r.calls.front();
    fmt::print(out, "  Check: OK - {}{}\n", first.check.summary,
               r.calls.size() > 1 ? fmt::format(" (all {} calls)", r.calls.size()) : "");
    for (const auto& d : first.check.details) fmt::print(out, "         {}\n", d);
    if (r.calls.size() > 1) {
        fmt::print(out, "  Time:  {} per call (GPU, median of {} after a warm-up; wall {})", format_ms(r.median_gpu_ms()),
                   r.calls.size() - 1, format_ms(r.median_host_ms()));
        const std::string tp = throughput(r);
        if (tp != "-") fmt::print(out, "   Throughput: {}", tp);
        fmt::print(out, "\n");
    }
}

}  // namespace hpclab::cli
