#include "program_lab_view.h"

#include "check/program_check.h"
#include "view/check_view.h"

#include <fmt/format.h>

namespace hpclab::cli {

namespace {

// A program lab's record: no sizes, no buffers; what its printed lines are held to.
int list_whole_program(Context& ctx, const LabInfo& lab)
{
    fmt::print("{}. {}: {}\n\n{}\n\n", lab.order, lab.id, lab.title, lab.teaches);
    fmt::print("Course program: {}\nYou edit:       {} (the whole program, main included)\nKernel:         {} "
               "(given)\nWalkthrough:    {}\n",
               lab.course_program, relative_to_root(ctx, lab.student_source()),
               relative_to_root(ctx, lab.lab_dir / lab.program.kernel_header), relative_to_root(ctx, lab.doc));
    for (const auto& t : lab.tasks) {
        fmt::print("\nTask {}: {}\n  launch: {}\n", t.id, t.title, t.launch);
        for (const auto& s : t.sizes) fmt::print("  size: {}\n", s.why);
    }
    fmt::print("  checked (hpclab check {}): the properties against hpclab's own query of the GPU; the times with "
               "cudaDeviceSynchronize and with events within {}x of hpclab's own timing of the kernel, either way; "
               "the time without synchronization below {} of it{}\n",
               lab.id, lab.program.time_factor, lab.program.launch_fraction,
               lab.program.calibrated ? "" : " (estimates, not yet measured on a GPU)");
    fmt::print("\n{} hints, from gentle to explicit, in {}.\n", lab.hints.size(),
               relative_to_root(ctx, lab.lab_dir / "lab.json"));
    return kPass;
}

// A program lab: the solution passes the whole check; the skeleton runs to
// its end (what it prints is judged) and fails.
int selftest_whole_program(Context& ctx, const LabInfo& lab, bool skeleton, const std::filesystem::path& source)
{
    const char* what = skeleton ? "skeleton" : "solution";
    const ProgramCheck c = check_program_lab(ctx.toolchain(), ctx.gpu(), lab, source, what);
    const bool as_expected = skeleton ? c.judgement && c.verdict != Verdict::pass : c.verdict == Verdict::pass;
    fmt::print("{:<4} {} {}: {} [{:.1f} s]\n", as_expected ? "ok" : "BAD", lab.id, what, verdict_name(c.verdict),
               c.total_s);
    if (!as_expected) {
        if (!c.message.empty()) fmt::print("     {}\n", c.message);
        if (c.judgement)
            for (const auto& p : c.judgement->problems) fmt::print("     {}\n", p);
        if (skeleton && c.verdict == Verdict::pass) fmt::print("     the skeleton passes: it solves the lab by accident\n");
    }
    if (c.verdict == Verdict::not_run) return kSkipped;
    fmt::print("selftest {} {}: {}\n", lab.id, what, as_expected ? "passed" : "FAILED");
    return as_expected ? kPass : kFail;
}

void refuse_whole_program(const LabInfo& lab, const std::string& command)
{
    throw UsageError(fmt::format("{} is a lab where you write the whole program (main included): hpclab {} does not "
                                 "apply to it. Its kernel is timed by hpclab check {}, against hpclab's own timing "
                                 "of the same kernel.",
                                 lab.id, command, lab.id));
}

int check_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant)
{
    const ProgramCheck c = check_program_lab(ctx.toolchain(), ctx.gpu(), lab, source, variant);
    print_program_check(ctx.catalog().root(), c);
    return verdict_info(c.verdict).exit_status;
}

}  // namespace


const WholeProgramCommands* whole_program_commands(const LabInfo& lab)
{
    static constexpr WholeProgramCommands kCommands {.list = list_whole_program,
                                                     .selftest = selftest_whole_program,
                                                     .check = check_program,
                                                     .refuse = refuse_whole_program};
    return lab.kind_traits().tasks_at_sizes ? nullptr : &kCommands;
}

}  // namespace hpclab::cli
