#include "program_lab_view.h"

#include "util/escape.h"
#include "util/text.h"

#include <fmt/format.h>

namespace hpclab::cli {

// What the program printed, as it printed it (the student sees their own
// lines), then each judged line against hpclab's own value.
void print_program_check(const Context& ctx, const ProgramCheck& c)
{
    if (!c.build.ok) {
        const bool setup = c.verdict == Verdict::grader_error;
        fmt::print("\n{} {}:\n{}", setup ? "hpclab could not build" : "Compile error in",
                   relative_to_root(ctx, c.source), trim_diagnostics(c.build.diagnostics, ctx.catalog().root(), 30));
        fmt::print("\n=> {}\n", upper(verdict_title(c.verdict)));
        return;
    }
    if (!c.printed.empty()) fmt::print("\nYour program printed:\n{}", indent(escaped_text(c.printed, true), "  | "));
    if (c.measured)
        fmt::print("\nhpclab's own timing of the same kernel on this GPU: {:.6f} s (events), {:.6f} s "
                   "(cudaDeviceSynchronize), {:.6f} s (the launch alone)\n",
                   c.measured->events_s, c.measured->sync_s, c.measured->launch_s);
    if (c.judgement) {
        fmt::print("\n");
        for (const auto& line : c.judgement->lines)
            fmt::print("  {:<4} {}: {} (hpclab: {})\n", line.ok ? "ok" : "FAIL", line.label,
                       line.printed.empty() ? "not printed" : for_terminal(line.printed), for_terminal(line.expected));
        for (const auto& p : c.judgement->problems) fmt::print("  - {}\n", for_terminal(p));
    }
    fmt::print("\n=> {}\n", upper(verdict_title(c.verdict)));
    if (!c.message.empty()) fmt::print("{}", indent(escaped_text(c.message, true) + "\n", "     "));
    fmt::print("\n{}: {} (total {:.1f} s)\n", c.lab->id, upper(verdict_title(c.verdict)), c.total_s);
}

int check_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant)
{
    const ProgramCheck c = check_program_lab(ctx.toolchain(), ctx.gpu(), lab, source, variant);
    print_program_check(ctx, c);
    return verdict_info(c.verdict).exit_status;
}

void refuse_program_lab(const LabInfo& lab, const std::string& command, const std::string& instead)
{
    throw UsageError(fmt::format("{} is a lab where you write the whole program (main included): hpclab {} does not "
                                 "apply to it. {}",
                                 lab.id, command, instead));
}

}  // namespace hpclab::cli
