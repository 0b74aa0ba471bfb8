// hpclab: run, build and check the CUDA labs.
#include "commands.h"
#include "size_options.h"

#include "bench/row.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>


using namespace hpclab;
using namespace hpclab::cli;

int main(int argc, char** argv)
{
    std::optional<Context> ctx;
    try {
        ctx.emplace(course_root());
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: cannot read the labs: {}\n", e.what());
        return kGraderError;
    }

    CLI::App app {"hpclab: the labs of the CUDA Programming course.\n"
                  "Edit labs/<lab>/<lab>.cu, then run it with: hpclab run <lab>"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Help for every command");

    auto* list = app.add_subcommand("list", "The labs, in course order, and your progress");
    bool list_markdown = false;
    std::string list_lab;
    list->add_option("lab", list_lab, "One lab in detail: its tasks, sizes, tolerances and thresholds");
    list->add_flag("--markdown", list_markdown, "As the README's table");
    app.add_subcommand("info", "This machine: the GPU, the CUDA compiler, the course folder");

    auto* build = app.add_subcommand("build", "Compile a lab without running it (no GPU needed)");
    std::string build_lab;
    bool build_solution = false;
    build->add_option("lab", build_lab, "The lab's id (hpclab list)")->required();
    build->add_flag("--solution", build_solution, "The reference solution instead of your code");

    auto* run = app.add_subcommand("run", "Run a lab on the GPU: what it computed, the check, the time");
    RunArgs ra;
    bool run_solution = false;
    std::uint64_t seed = 0;
    run->add_option("lab", ra.lab, "The lab's id (hpclab list)");
    run->add_flag("--all", ra.all, "Every lab, one table (with --solution: the reference solutions)");
    run->add_flag("--solution", run_solution, "The reference solution instead of your code");
    run->add_option("--task", ra.task, "Only this task of the lab");
    run->add_flag("--all-sizes", ra.all_sizes, "Every edge size of the lab instead of one timed size");
    run->add_flag("--big", ra.big, "With --all-sizes: also the sizes past 2^31 bytes (slow, needs memory)");
    auto* seed_opt = run->add_option("--seed", seed, "Seed of the random inputs (to replay a run)");
    run->add_option("--image", ra.image, "A grayscale PGM image as input (image labs)");
    run->add_option("--output", ra.output, "Where to write the output image (image labs)");
    run->add_option("--json", ra.json, "With --all: also write the table as JSON to this file");
    const SizeOptions run_sizes(*run, ctx->catalog(), SizeOptions::Values::one);

    auto* check = app.add_subcommand("check", "Judge a lab: one verdict per task, what is wrong, where, and why");
    CheckArgs ca;
    bool check_solution = false;
    std::uint64_t check_seed = 0;
    check->add_option("lab", ca.lab, "The lab's id (hpclab list)")->required();
    check->add_flag("--solution", check_solution, "The reference solution instead of your code");
    check->add_option("--file", ca.file, "Judge this file in place of labs/<lab>/<lab>.cu");
    check->add_option("--task", ca.task, "Only this task");
    auto* check_seed_opt = check->add_option("--seed", check_seed, "Seed of the inputs (to replay a check)");
    check->add_flag("--no-sanitizer", ca.no_sanitizer, "Leave out the compute-sanitizer runs");
    check->add_flag("--no-timing", ca.no_timing, "Leave out the speed measurement");
    check->add_flag("--big", ca.big, "Also the sizes past 2^31 bytes");
    check->add_flag("--quiet", ca.quiet, "Less progress output");
    check->add_option("--expect", ca.expect, "A verdict name: exit 0 only if the check gives exactly that verdict");
    check->add_option("--json", ca.json, "Also write the grade record to this file");

    auto* selftest = app.add_subcommand("selftest", "Maintainer check: the solution passes / the skeleton fails");
    std::string st_lab;
    bool st_solution = false, st_skeleton = false, st_no_big = false, st_only_big = false;
    selftest->add_option("lab", st_lab, "The lab's id")->required();
    auto* sol = selftest->add_flag("--solution", st_solution, "Every task at every size must pass");
    auto* skel = selftest->add_flag("--skeleton", st_skeleton, "Every task at every size must fail its check");
    sol->excludes(skel);
    auto* no_big = selftest->add_flag("--no-big", st_no_big, "Leave out the sizes past 2^31 bytes");
    selftest->add_flag("--only-big", st_only_big, "Only the sizes past 2^31 bytes")->excludes(no_big);

    auto* bench = app.add_subcommand(
        "bench", "Benchmark the reference solutions and the variants in bench/<lab>/ over sizes (asserts nothing)");
    BenchArgs ba;
    int bench_reps = 0;
    bench->add_option("labs", ba.labs, "Labs (default: every lab with a sweep in its lab.json)");
    bench->add_option("--task", ba.task, "Only this task");
    bench->add_option("--variants", ba.variants, "Only these variants (file names in bench/<lab>/, or reference)")
        ->delimiter(',')
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto* reps_opt = bench->add_option("--reps", bench_reps, "Timed calls per run after the warm-up (default: the "
                                                             "task's timing reps, at least 10)");
    bench->add_flag("--quick", ba.quick, "Only the largest size of each sweep");
    const SizeOptions bench_sizes(*bench, ctx->catalog(), SizeOptions::Values::list);
    bench->add_option("--csv", ba.csv, "Also write every row to this CSV file");
    bench->add_option("--json", ba.json, "Also write the results to this JSON file (for --report)");
    bench->add_option("--variants-dir", ba.variants_dir, "Where the variants are (default: bench/ of the course)");
    bench->add_flag("--build-only", ba.build_only, "Compile every variant, run nothing (no GPU needed)");
    bench->add_option("--report", ba.report, "Render this results file (written by --json) instead of measuring");
    bench->add_flag("--markdown", ba.markdown, "With --report: as markdown tables, for the docs");
    bench->add_option("--update", ba.update,
                      "With --report: rewrite the generated section of this document (docs/performance.md)");
    bench->footer("Rows: every variant of every timed task at every size of its sweep (labs/<lab>/lab.json, \"bench\"),\n"
                  "verified call by call; a wrong one gets no number. The docs' results:\n"
                  "  hpclab bench --json docs/results/bench-h100.json\n"
                  "  hpclab bench --report docs/results/bench-h100.json --update docs/performance.md");

    auto* hint = app.add_subcommand("hint", "The lab's next hint, gentle first (remembered)");
    std::string hint_lab;
    bool hint_all = false, hint_reset = false;
    hint->add_option("lab", hint_lab, "The lab's id (hpclab list)")->required();
    auto* hint_all_opt = hint->add_flag("--all", hint_all, "Every hint shown so far");
    hint->add_flag("--reset", hint_reset, "Start the lab's hints over")->excludes(hint_all_opt);

    auto* reset = app.add_subcommand("reset", "Your lab file back to the skeleton (after a backup in .hpclab/backups)");
    std::string reset_lab;
    reset->add_option("lab", reset_lab, "The lab's id (hpclab list)")->required();

    auto* watch = app.add_subcommand("watch", "Check the lab every time you save it; keys for hints and labs");
    std::string watch_lab;
    watch->add_option("lab", watch_lab, "The lab to start at (default: the first one not solved)");
    watch->footer("Keys, on a terminal (no Enter): h hint, n next lab, p previous lab, r check now, q quit.\n"
                  "From a pipe: the words hint, next, prev, check, quit, one per line.");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "hpclab: {}\nRun 'hpclab --help' for the commands.\n", e.what());
        return kUsage;
    }

    try {
        if (app.got_subcommand("list")) return cmd_list(*ctx, list_markdown, list_lab);
        if (app.got_subcommand("info")) return cmd_info(*ctx);
        if (app.got_subcommand("hint"))
            return cmd_hint(*ctx, hint_lab,
                            hint_all ? HintAction::all_shown : hint_reset ? HintAction::start_over : HintAction::next);
        if (app.got_subcommand("reset")) return cmd_reset(*ctx, reset_lab);
        if (app.got_subcommand("watch")) return cmd_watch(*ctx, watch_lab);
        if (app.got_subcommand("build")) return cmd_build(*ctx, build_lab, build_solution ? Variant::solution : Variant::student);
        if (app.got_subcommand("check")) {
            ca.variant = check_solution ? Variant::solution : Variant::student;
            if (check_seed_opt->count()) ca.seed = check_seed;
            if (check_solution && !ca.file.empty()) throw UsageError("give --solution or --file, not both");
            return cmd_check(*ctx, ca);
        }
        if (app.got_subcommand("selftest")) {
            if (!st_solution && !st_skeleton) throw UsageError("selftest needs --solution or --skeleton");
            return cmd_selftest(*ctx, st_lab, st_skeleton,
                                st_only_big ? BigSizes::only : st_no_big ? BigSizes::leave_out : BigSizes::include);
        }
        if (app.got_subcommand("run")) {
            ra.variant = run_solution ? Variant::solution : Variant::student;
            if (seed_opt->count()) ra.seed = seed;
            for (const auto& [name, values] : run_sizes.given()) ra.sizes[name] = values.front();
            return cmd_run(*ctx, ra);
        }
        if (app.got_subcommand("bench")) {
            if (reps_opt->count()) ba.reps = bench_reps;
            ba.sizes = bench_sizes.given();
            ba.command_line = "hpclab";
            for (int i = 1; i < argc; ++i) ba.command_line += " " + std::string(argv[i]);
            return ba.report.empty() ? cmd_bench(*ctx, ba) : cmd_bench_report(ba);
        }
    } catch (const UsageError& e) {
        fmt::print(stderr, "hpclab: {}\n", e.what());
        return kUsage;
    } catch (const BenchInputError& e) {
        fmt::print(stderr, "hpclab: {}\n", e.what());
        return kUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: internal error: {}\n", e.what());
        return kGraderError;
    }
    return kUsage;
}
