#include "view/run_view.h"

#include "course/exit_status.h"
#include "util/text.h"

#include <fmt/format.h>

#include <sstream>

namespace hpclab {

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

}  // namespace hpclab
