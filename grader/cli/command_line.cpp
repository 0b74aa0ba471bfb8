#include "command_line.h"

#include "commands.h"
#include "grade/grade_class.h"
#include "size_options.h"

#include <fmt/format.h>

namespace hpclab::cli {

namespace {

// Options live as long as the program: the calls read them after parsing.
template <class T> T& keep(std::vector<std::shared_ptr<void>>& store)
{
    auto p = std::make_shared<T>();
    store.push_back(p);
    return *p;
}

std::vector<std::shared_ptr<void>> g_values;

// The tests' switch (tests/CMakeLists.txt, broken_tests.cmake.in): a verdict
// that only the sandbox or the cgroup's limits give is skipped where they
// cannot be had, not failed.
void add_needs_option(CLI::App* c, std::vector<std::string>& needs)
{
    c->add_option("--needs", needs,
                  "sandbox, cgroup, ncu: the verdict holds only with them; without them exit 77 (skipped), as a test does")
        ->check(CLI::IsMember({"sandbox", "cgroup", "ncu"}))
        ->delimiter(',');
}

ParsedCommand list_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("list", "The labs, in course order, and your progress");
    auto& markdown = keep<bool>(g_values);
    auto& lab = keep<std::string>(g_values);
    c->add_option("lab", lab, "One lab in detail: its tasks, sizes, tolerances and thresholds");
    c->add_flag("--markdown", markdown, "As the README's table; with a lab, its walkthrough's table of mistakes");
    return {c, [&] { return cmd_list(ctx, markdown, lab); }};
}

ParsedCommand info_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("info", "This machine: the GPU, the CUDA compiler, the course folder");
    return {c, [&] { return cmd_info(ctx); }};
}

ParsedCommand verdicts_command(CLI::App& app, Context&)
{
    auto* c = app.add_subcommand("verdicts", "The verdicts a check gives, in order of precedence, and what they mean");
    auto& cmake = keep<std::string>(g_values);
    c->add_option("--cmake", cmake, "Write them as CMake variables to this file (for the test suite)");
    return {c, [&] { return cmd_verdicts(cmake); }};
}

ParsedCommand variants_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("variants", "The benchmark's variants in bench/: kind, tasks, the verdict check gives");
    auto& cmake = keep<std::string>(g_values);
    c->add_option("--cmake", cmake, "Write them as CMake variables to this file (for the test suite)");
    return {c, [&] { return cmd_variants(ctx, cmake); }};
}

ParsedCommand build_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("build", "Compile a lab without running it (no GPU needed)");
    auto& lab = keep<std::string>(g_values);
    auto& solution = keep<bool>(g_values);
    c->add_option("lab", lab, "The lab's id (hpclab list)")->required();
    c->add_flag("--solution", solution, "The reference solution instead of your code");
    return {c, [&] { return cmd_build(ctx, lab, solution ? Variant::solution : Variant::student); }};
}

ParsedCommand run_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("run", "Run a lab on the GPU: what it computed, the check, the time");
    auto& a = keep<RunArgs>(g_values);
    auto& solution = keep<bool>(g_values);
    auto& seed = keep<std::uint64_t>(g_values);
    c->add_option("lab", a.lab, "The lab's id (hpclab list)");
    c->add_flag("--all", a.all, "Every lab, one table (with --solution: the reference solutions)");
    c->add_flag("--solution", solution, "The reference solution instead of your code");
    c->add_option("--task", a.task, "Only this task of the lab");
    c->add_flag("--all-sizes", a.all_sizes, "Every edge size of the lab instead of one timed size");
    c->add_flag("--big", a.big, "With --all-sizes: also the sizes past 2^31 bytes (slow, needs memory)");
    auto* seed_opt = c->add_option("--seed", seed, "Seed of the random inputs (to replay a run)");
    c->add_option("--image", a.image, "A grayscale PGM image as input (image labs)");
    c->add_option("--output", a.output, "Where to write the output image (image labs)");
    c->add_option("--json", a.json, "With --all: also write the table as JSON to this file");
    auto sizes = std::make_shared<SizeOptions>(*c, ctx.catalog(), SizeOptions::Values::one);
    return {c, [&, seed_opt, sizes] {
                a.variant = solution ? Variant::solution : Variant::student;
                if (seed_opt->count()) a.seed = seed;
                for (const auto& [name, values] : sizes->given()) a.sizes[name] = values.front();
                return cmd_run(ctx, a);
            }};
}

ParsedCommand check_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("check", "Judge a lab: one verdict per task, what is wrong, where, and why");
    auto& a = keep<CheckArgs>(g_values);
    auto& solution = keep<bool>(g_values);
    auto& seed = keep<std::uint64_t>(g_values);
    c->add_option("lab", a.lab, "The lab's id (hpclab list)")->required();
    c->add_flag("--solution", solution, "The reference solution instead of your code");
    c->add_option("--file", a.file, "Judge this file in place of labs/<lab>/<lab>.cu");
    c->add_option("--task", a.task, "Only this task");
    auto* seed_opt = c->add_option("--seed", seed, "Seed of the inputs (to replay a check)");
    c->add_flag("--no-sanitizer", a.no_sanitizer, "Leave out the compute-sanitizer runs");
    c->add_flag("--no-timing", a.no_timing, "Leave out the speed measurement");
    c->add_flag("--no-sandbox", a.no_sandbox,
                "Compile and run without the sandbox (bubblewrap), as on your own machine");
    c->add_flag("--big", a.big, "Also the sizes past 2^31 bytes");
    auto* profile = c->add_flag("--profile", a.profile,
                                "Every timed task once more under Nsight Compute (ncu), not only a slow one: each "
                                "measure, what it means, and the lesson's sentence if one fits");
    auto* no_profile = c->add_flag("--no-profile", a.no_profile, "Leave out a slow task's profile")->excludes(profile);
    c->add_flag("--quiet", a.quiet, "Less progress output");
    c->add_option("--expect", a.expect, "A verdict name: exit 0 only if the check gives exactly that verdict");
    c->add_option("--expect-profile", a.expect_profile,
                  "A profiler measure: and only if a slow task's sentence rests on it")->excludes(no_profile);
    add_needs_option(c, a.needs);
    c->add_option("--json", a.json, "Also write the grade record to this file");
    return {c, [&, seed_opt] {
                if (solution && !a.file.empty()) throw UsageError("give --solution or --file, not both");
                a.variant = solution ? Variant::solution : Variant::student;
                if (seed_opt->count()) a.seed = seed;
                return cmd_check(ctx, a);
            }};
}

ParsedCommand selftest_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("selftest", "Maintainer check: the solution passes / the skeleton fails");
    auto& lab = keep<std::string>(g_values);
    auto& f = keep<std::array<bool, 4>>(g_values);  // solution, skeleton, no-big, only-big
    c->add_option("lab", lab, "The lab's id")->required();
    auto* sol = c->add_flag("--solution", f[0], "Every task at every size must pass");
    c->add_flag("--skeleton", f[1], "Every task at every size must fail its check")->excludes(sol);
    auto* no_big = c->add_flag("--no-big", f[2], "Leave out the sizes past 2^31 bytes");
    c->add_flag("--only-big", f[3], "Only the sizes past 2^31 bytes")->excludes(no_big);
    return {c, [&] {
                if (!f[0] && !f[1]) throw UsageError("selftest needs --solution or --skeleton");
                return cmd_selftest(ctx, lab, f[1], f[3] ? BigSizes::only : f[2] ? BigSizes::leave_out : BigSizes::include);
            }};
}

ParsedCommand bench_command(CLI::App& app, Context& ctx, std::string command_line)
{
    auto* c = app.add_subcommand(
        "bench", "Benchmark the reference solutions and the variants in bench/<lab>/ over sizes (asserts nothing)");
    auto& a = keep<BenchArgs>(g_values);
    auto& reps = keep<int>(g_values);
    c->add_option("labs", a.labs, "Labs (default: every lab with a sweep in its lab.json)");
    c->add_option("--task", a.task, "Only this task");
    c->add_option("--variants", a.variants, "Only these variants (file names in bench/<lab>/, or solution)")
        ->delimiter(',')
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto* reps_opt = c->add_option("--reps", reps, "Timed calls per run after the warm-up (default: the task's "
                                                   "timing reps, at least 10)");
    c->add_flag("--quick", a.quick, "Only the largest size of each sweep");
    auto sizes = std::make_shared<SizeOptions>(*c, ctx.catalog(), SizeOptions::Values::list);
    c->add_option("--csv", a.csv, "Also write every row to this CSV file");
    c->add_option("--json", a.json, "Also write the results to this JSON file (for --report)");
    c->add_option("--variants-dir", a.variants_dir, "Where the variants are (default: bench/ of the course)");
    c->add_flag("--build-only", a.build_only, "Compile every variant, run nothing (no GPU needed)");
    c->add_option("--report", a.report, "Render this results file (written by --json) instead of measuring");
    c->add_flag("--markdown", a.markdown, "With --report: as markdown tables, for the docs");
    c->add_option("--update", a.update,
                  "With --report: rewrite the generated table and figures of these documents (a folder: each of "
                  "its .md files that has them; docs/)");
    c->add_option("--plot", a.plot, "With --report: draw an SVG plot per lab task into this folder (docs/figures/bench)");
    c->footer("Rows: every variant of every timed task at every size of its sweep (labs/<lab>/lab.json, \"bench\"),\n"
              "verified call by call; a wrong one gets no number. The docs' results:\n"
              "  hpclab bench --json docs/results/bench-h100.json\n"
              "  hpclab bench --report docs/results/bench-h100.json --update docs\n"
              "  hpclab bench --report docs/results/bench-h100.json --plot docs/figures/bench");
    return {c, [&, reps_opt, sizes, command_line] {
                if (reps_opt->count()) a.reps = reps;
                a.sizes = sizes->given();
                a.command_line = command_line;
                return a.report.empty() ? cmd_bench(ctx, a) : cmd_bench_report(a);
            }};
}

ParsedCommand image_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("image", "A PGM image as a PNG for the docs (no GPU needed)");
    auto& a = keep<ImageArgs>(g_values);
    c->add_option("input", a.input, "A PGM image (labs/rotation/chelsea.pgm, or one hpclab run wrote)")->required();
    c->add_option("output", a.output, "The file to write: .png, or .pgm")->required();
    c->add_option("--reference", a.reference, "Write what this lab's CPU reference makes of the image (rotation)");
    c->footer("The rotation walkthrough's pictures:\n"
              "  hpclab image labs/rotation/chelsea.pgm docs/figures/rotation-input.png\n"
              "  hpclab run rotation --solution --task tiled --output rotated.pgm   # on a GPU\n"
              "  hpclab image rotated.pgm docs/figures/rotation-output.png");
    return {c, [&] { return cmd_image(ctx, a); }};
}

ParsedCommand hint_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("hint", "The lab's next hint, gentle first (remembered)");
    auto& lab = keep<std::string>(g_values);
    auto& all = keep<bool>(g_values);
    auto& reset = keep<bool>(g_values);
    c->add_option("lab", lab, "The lab's id (hpclab list)")->required();
    auto* all_opt = c->add_flag("--all", all, "Every hint shown so far");
    c->add_flag("--reset", reset, "Start the lab's hints over")->excludes(all_opt);
    return {c, [&] {
                return cmd_hint(ctx, lab, all ? HintAction::all_shown : reset ? HintAction::start_over : HintAction::next);
            }};
}

ParsedCommand reset_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("reset", "Your lab file back to the skeleton (after a backup in .hpclab/backups)");
    auto& lab = keep<std::string>(g_values);
    c->add_option("lab", lab, "The lab's id (hpclab list)")->required();
    return {c, [&] { return cmd_reset(ctx, lab); }};
}

ParsedCommand watch_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("watch", "Check the lab every time you save it; keys for hints and labs");
    auto& lab = keep<std::string>(g_values);
    c->add_option("lab", lab, "The lab to start at (default: the first one not solved)");
    c->footer("Keys, on a terminal (no Enter): h hint, n next lab, p previous lab, r check now, q quit.\n"
              "From a pipe: the words hint, next, prev, check, quit, one per line.");
    return {c, [&] { return cmd_watch(ctx, lab); }};
}

ParsedCommand grade_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("grade", "Grade a class: a folder per student into a gradebook, feedback and a report");
    auto& a = keep<GradeArgs>(g_values);
    auto& seed = keep<std::uint64_t>(g_values);
    c->add_option("submissions", a.submissions,
                  "The class's folder: a folder per student, holding a copy of labs/ or the <lab>.cu files loose")
        ->required();
    c->add_option("--out", a.out, "Where the gradebook, the reports and every result go (a run resumes there)")->required();
    c->add_option("--config", a.config,
                  "The course config (JSON: seed, points, credit, roster_keys, thresholds; default: "
                  "course-config.json in the course folder, where there is one)");
    c->add_option("--roster", a.roster, "The class list your LMS exports (CSV): the gradebook's rows and keys");
    c->add_option("--roster-key", a.roster_keys, "A roster column that names the student (default: ID, login, email, ...)");
    auto* seed_opt = c->add_option("--seed", seed, "The course seed (default: the config's, else the folder's, else new)");
    c->add_option("--student", a.student, "Grade only this student, again");
    c->add_flag("--again", a.again, "Grade every file again, even those already graded");
    c->add_flag("--list", a.list_only, "Only say what is found and what is ignored, and why");
    c->add_option("--jobs", a.jobs, "Compiles at once (default: the CPU cores)")->check(CLI::Range(1, 1024));
    c->add_option("--checks-at-once", a.checks_at_once, "Checks sharing a GPU at once, a new one as one ends (timing always runs alone; the GPU's health is checked after every sixteen times as many)")
        ->check(CLI::Range(1, 16));
    // Its old name, still taken (scripts and notes of earlier terms), with a note.
    c->add_option("--per-gpu", a.checks_at_once)
        ->check(CLI::Range(1, 16))
        ->each([](const std::string&) { fmt::print(stderr, "hpclab grade: --per-gpu is now called --checks-at-once\n"); })
        ->group("");
    c->add_option("--gpus", a.gpus, "The GPUs to grade on, indices (0,1) or all (default: the first); several: a process each, grading its share of the students");
    c->add_flag("--no-sanitizer", a.no_sanitizer, "Leave compute-sanitizer out");
    c->add_flag("--no-timing", a.no_timing, "Leave the speed checks out");
    c->add_flag("--no-sandbox", a.no_sandbox, "Grade without the sandbox (only on a machine that trusts the files)");
    c->add_flag("--big,!--no-big", a.big, "The sizes past 2^31 bytes or elements, where the GPU's memory holds them, each with the GPU alone (the default; --no-big leaves them out)");
    c->add_option("--chunk", a.chunk, "k/K: grade only chunk k of K (what a Slurm array task runs)");
    c->add_flag("--slurm", a.slurm, "Write a Slurm job array (a chunk of students per GPU) instead of grading here");
    c->add_option("--chunks", a.chunks, "With --slurm: how many chunks")->check(CLI::Range(1, 10000));
    c->add_option("--partition", a.partition, "With --slurm: the partition");
    c->add_option("--time", a.time_limit, "With --slurm: each chunk's time limit");
    c->add_option("--gres", a.gres, "With --slurm: each chunk's generic resources (default gpu:1)");
    c->add_option("--cpus", a.cpus, "With --slurm: each chunk's CPUs, for its compiles (default 8)")
        ->check(CLI::Range(1, 1024));
    c->add_flag("--submit", a.submit, "With --slurm: submit it with sbatch too");
    c->add_option("--expect", a.expect,
                  "A CSV of student,lab,task,verdict: exit 0 iff every one is given (77 when some could not run)");
    add_needs_option(c, a.needs);
    return {c, [&, seed_opt] {
                if (seed_opt->count()) a.seed = seed;
                return cmd_grade(ctx, a);
            }};
}

ParsedCommand calibrate_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("calibrate",
                                 "Measure the speed thresholds on this GPU and write them into the course config");
    auto& a = keep<CalibrateArgs>(g_values);
    c->add_option("labs", a.labs, "Labs (default: every lab with a speed threshold)");
    c->add_option("--reps", a.reps, "Checks of each course version and slow version (default 3)")
        ->check(CLI::Range(1, 20));
    c->add_option("--config", a.config, "The course config to write (default: course-config.json in the course folder)");
    c->footer("Each lab's solution (the course's version) is checked as a student's file, without the sanitizer,\n"
              "and so is each slow version of tests/broken/<lab>/ (\"// expect: too_slow\"). A task keeps\n"
              "lab.json's threshold where both stay 1.2x clear of it; else a new one between them is written,\n"
              "unless they are too close to call (refused: exit 1). Needs the GPU to itself (77 without one).");
    return {c, [&] { return cmd_calibrate(ctx, a); }};
}

ParsedCommand merge_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("merge", "One gradebook from the chunks of a Slurm grading (hpclab grade --slurm)");
    auto& out = keep<std::string>(g_values);
    c->add_option("out", out, "The --out folder of hpclab grade --slurm")->required();
    return {c, [&] { return cmd_merge(ctx, out); }};
}

ParsedCommand export_kit_command(CLI::App& app, Context& ctx)
{
    auto* c = app.add_subcommand("export-student-kit",
                                 "Write the course as students get it: no solutions, the speed baselines compiled");
    auto& out = keep<std::string>(g_values);
    auto& archs = keep<std::string>(g_values);
    archs = "75;80;86;89;90;100;120";
    c->add_option("dir", out, "A new folder for the kit")->required();
    c->add_option("--architectures", archs, "The GPU architectures of the compiled baselines (CMake style)")
        ->capture_default_str();
    return {c, [&] { return cmd_export_kit(ctx, out, archs); }};
}

}  // namespace

std::vector<ParsedCommand> define_commands(CLI::App& app, Context& ctx, int argc, char** argv)
{
    std::string command_line = "hpclab";
    for (int i = 1; i < argc; ++i) command_line += " " + std::string(argv[i]);
    return {list_command(app, ctx),     info_command(app, ctx),  verdicts_command(app, ctx),
            build_command(app, ctx),    run_command(app, ctx),   check_command(app, ctx),
            selftest_command(app, ctx), bench_command(app, ctx, command_line), variants_command(app, ctx),
            image_command(app, ctx),
            hint_command(app, ctx),     reset_command(app, ctx), watch_command(app, ctx),
            grade_command(app, ctx),    merge_command(app, ctx), calibrate_command(app, ctx),
            export_kit_command(app, ctx)};
}

}  // namespace hpclab::cli
