#include "lab_runs.h"

#include "check/evidence.h"
#include "run/gpu_turns.h"
#include "run/run_recipe.h"
#include "util/shown_path.h"
#include "util/text.h"

#include <fmt/format.h>

#include <sstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

std::filesystem::path source_of(const LabInfo& lab, Variant v)
{
    std::error_code ec;
    if (v == Variant::solution && !fs::exists(lab.solution_source(), ec))
        throw UsageError("there is no solution of " + lab.id + " here (" + lab.solution_source().string() +
                         "): the student kit has none. 'hpclab hint " + lab.id + "' and docs/" + lab.id +
                         ".md help instead");
    return v == Variant::solution ? lab.solution_source() : lab.student_source();
}

const char* variant_name(Variant v) { return v == Variant::solution ? "solution" : "student"; }

std::string relative_to_root(const Context& ctx, const fs::path& p) { return shown_path(p, ctx.catalog().root()); }

std::optional<fs::path> build_program(Context& ctx, const LabInfo& lab, Variant v, bool quiet)
{
    return build_program(ctx, lab, source_of(lab, v), variant_name(v), quiet);
}

std::optional<fs::path> build_program(Context& ctx, const LabInfo& lab, const fs::path& src, const std::string& build,
                                      bool quiet)
{
    const BuildResult b = build_and_report(ctx, lab, src, build, quiet, {});
    if (!b.ok) return std::nullopt;
    return b.program;
}

BuildResult build_and_report(Context& ctx, const LabInfo& lab, const fs::path& src, const std::string& build,
                             bool quiet, const std::vector<std::string>& link_libraries)
{
    const Toolchain& tc = ctx.toolchain();
    if (!tc.available()) throw UsageError("cannot build lab programs: " + tc.unavailable);
    if (!quiet) fmt::print("Building {} ... ", relative_to_root(ctx, src));
    std::fflush(stdout);
    const BuildResult b = build_lab_program(tc, lab, src, build, link_libraries);
    if (!b.ok && b.setup_problem) {
        if (!quiet) fmt::print("failed\n");
        std::fflush(stdout);
        throw SetupError("could not build " + relative_to_root(ctx, src) + " (a set-up problem, not the code):\n" +
                         trim_diagnostics(b.diagnostics, ctx.catalog().root(), 20));
    }
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

RunRequest run_request(Context& ctx, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                       const Params& params, const RunOptions& options)
{
    const RunTarget target {.lab = &lab,
                            .task = &task,
                            .program = program,
                            .params = params,
                            .seed = options.seed ? *options.seed : fresh_seed(),
                            .gpu_memory_bytes = ctx.gpu().memory_bytes,
                            .gpu_minor = ctx.gpu().minor,
                            .big = options.big};
    RunRequest req = options.timed ? timed_run(target, {.reps = task.timing_reps}) : correctness_run(target);
    req.fill_inputs = options.fill_inputs;
    req.on_first_outputs = options.on_first_outputs;
    return req;
}

RunReport run_one(Context& ctx, const LabInfo& lab, const TaskInfo& task, const fs::path& program,
                  const Params& params, const RunOptions& options)
{
    // A shared turn on the GPU while the program runs (run/gpu_turns.h):
    // on a lab server, another student's check times its calls alone.
    RunRequest req = run_request(ctx, lab, task, program, params, options);
    GpuTurns turns(ctx.gpu().uuid);
    return while_program_runs(&turns, false, req, [&] { return run_task(req); });
}

int exit_of(const TaskVerdict& v, const RunReport& r)
{
    if (r.status == RunStatus::too_large) return kUsage;
    return verdict_info(v.verdict).exit_status;
}

std::string verdict_word(const TaskVerdict& v)
{
    return v.verdict == Verdict::pass ? "OK" : upper(verdict_title(v.verdict));
}

std::string throughput(const RunReport& r)
{
    const double s = r.median_gpu_ms() / 1e3;
    if (s <= 0) return "-";
    return format_rate(r.work.bytes / s, r.work.flops / s);
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

// The first failing call's details: the comparison's, the guards', the launch's.
void print_call_details(std::FILE* out, const CallReport& c)
{
    for (const auto& d : c.check.details) fmt::print(out, "         {}\n", d);
    if (!c.guards_damaged.empty())
        fmt::print(out, "         your code wrote past the end (or before the start) of: {}\n",
                   fmt::join(c.guards_damaged, ", "));
    if (c.launch_error)
        fmt::print(out, "         a kernel launch failed (CUDA error {}): check the launch configuration\n",
                   c.launch_error);
}

void print_time(std::FILE* out, const RunReport& r)
{
    if (r.calls.size() < 2) return;
    fmt::print(out, "  Time:  {} per call (GPU, median of {} after a warm-up; wall {})", format_ms(r.median_gpu_ms()),
               r.calls.size() - 1, format_ms(r.median_host_ms()));
    if (const std::string tp = throughput(r); tp != "-") fmt::print(out, "   Throughput: {}", tp);
    fmt::print(out, "\n");
}

}  // namespace

void print_run(std::FILE* out, const RunReport& r, const TaskVerdict& v)
{
    if (const std::string printed = printed_text(r.process.out, 40); !printed.empty())
        fmt::print(out, "  Your code printed:{}\n{}", r.process.out_truncated ? " (cut at 1 MiB)" : "", printed);
    if (const std::string errors = printed_text(r.process.err, 20); !errors.empty())
        fmt::print(out, "  On stderr:{}\n{}", r.process.err_truncated ? " (cut at 1 MiB)" : "", errors);
    if (!r.computed.empty()) fmt::print(out, "  Computed: {}\n", r.computed);
    if (v.verdict != Verdict::pass) {
        std::string message = v.reason.message;  // its later lines under its first
        for (std::size_t at = 0; (at = message.find('\n', at)) != std::string::npos; at += 10) message.insert(at + 1, 9, ' ');
        fmt::print(out, "  Check: {}{} - {}\n", verdict_word(v), v.reason.where.empty() ? "" : " at " + v.reason.where,
                   message);
        if (const CallReport* bad = r.first_failure()) print_call_details(out, *bad);
        return;
    }
    const CallReport& first = r.calls.front();
    fmt::print(out, "  Check: OK - {}{}\n", first.check.summary,
               r.calls.size() > 1 ? fmt::format(" (all {} calls)", r.calls.size()) : "");
    for (const auto& d : first.check.details) fmt::print(out, "         {}\n", d);
    print_time(out, r);
}

}  // namespace hpclab::cli
