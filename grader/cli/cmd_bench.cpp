// hpclab bench: the reference solutions and the variants in bench/<lab>/,
// each timed on every timed task over a sweep of sizes (bench/bench_run.h).
#include "commands.h"
#include "program_lab_view.h"

#include "bench/bench_run.h"
#include "bench/build_commit.h"
#include "bench/render.h"
#include "student/committed_file.h"
#include "util/clock_text.h"
#include "util/escape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

std::vector<const LabInfo*> chosen_labs(const Context& ctx, const BenchArgs& args)
{
    if (args.labs.empty()) return labs_with_sweeps(ctx.catalog());
    std::vector<const LabInfo*> labs;
    for (const auto& id : args.labs) {
        const LabInfo* lab = &ctx.lab(id);
        if (const auto* whole = whole_program_commands(*lab)) whole->refuse(*lab, "bench");
        if (std::find(labs.begin(), labs.end(), lab) == labs.end()) labs.push_back(lab);
    }
    return labs;
}

// An output file must be writable where it is asked for, before hours of
// measuring: its folder exists, and it is not itself a folder.
void check_output_file(const std::string& option, const std::string& file)
{
    if (file.empty()) return;
    std::error_code ec;
    const fs::path p(file);
    const fs::path folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    if (fs::is_directory(p, ec)) throw UsageError(fmt::format("{} {}: a folder; give a file name", option, file));
    if (!fs::is_directory(folder, ec))
        throw UsageError(fmt::format("{} {}: the folder {} does not exist", option, file, folder.string()));
}

BenchHeader make_header(Context& ctx, const BenchArgs& args)
{
    BenchHeader h;
    const GpuInfo& gpu = ctx.gpu();
    h.gpu = gpu.name;
    h.gpu_uuid = gpu.uuid;
    h.driver = gpu.driver_string();
    h.nvcc = ctx.toolchain().nvcc_version;
    h.architectures = ctx.toolchain().architectures;
    h.date = now_text("%Y-%m-%dT%H:%M:%SZ", Zone::utc);
    // The code that measured: the build's commit (a checkout's HEAD may have
    // moved since), and what differed from the checkout's commit as it ran.
    h.commit = build_commit().empty() ? checkout_commit(ctx.catalog().root()) : std::string(build_commit());
    h.changed_files = changed_tracked_files(ctx.catalog().root());
    h.command = args.command_line;
    return h;
}

void write_outputs(const BenchArgs& args, const BenchResults& results)
{
    if (!args.json.empty()) write_results_file(args.json, results);
    if (!args.csv.empty()) write_text_file(args.csv, results_csv(results.rows));
}

}  // namespace

int cmd_bench(Context& ctx, const BenchArgs& args)
{
    if (args.markdown || !args.update.empty() || !args.plot.empty())
        throw UsageError("--markdown, --update and --plot go with --report <results.json>");
    BenchChoices choices;
    choices.task = args.task;
    choices.variants = args.variants;
    choices.sizes = args.sizes;
    choices.quick = args.quick;
    choices.reps = args.reps;
    const fs::path root = ctx.catalog().root();
    const fs::path variants_dir = args.variants_dir.empty() ? root / "bench" : fs::path(args.variants_dir);
    if (!args.variants_dir.empty() && !fs::is_directory(variants_dir))
        throw UsageError(fmt::format("--variants-dir {}: no such folder", args.variants_dir));
    const std::vector<LabPlan> plans = plan_bench(chosen_labs(ctx, args), choices, variants_dir, root);
    check_output_file("--csv", args.csv);
    check_output_file("--json", args.json);
    if (!args.csv.empty() && fs::path(args.csv) == fs::path(args.json))
        throw UsageError("--csv and --json name the same file");

    // Nothing is built before it is known that it can run (or --build-only).
    if (!args.build_only && !ctx.gpu().present) {
        fmt::print(stderr,
                   "hpclab: no GPU here ({}), so nothing was measured.\n"
                   "        The variants still compile without one: hpclab bench --build-only\n",
                   ctx.gpu().why_not);
        return kSkipped;
    }
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab: cannot build the variants: {}\n", ctx.toolchain().unavailable);
        return kSkipped;
    }
    if (args.build_only) return build_every_variant(ctx.build_site(), plans) ? kPass : kFail;

    BenchResults results;
    results.header = make_header(ctx, args);
    results.header.complete = false;
    fmt::print("Benchmark on {}: {} runs\n", results.header.gpu, count_runs(plans));
    run_bench(ctx.build_site(), ctx.gpu(), plans, results,
              [&](const BenchResults& so_far) { write_outputs(args, so_far); });
    results.header.complete = true;
    write_outputs(args, results);
    fmt::print("\n{}", render_table(results));
    const bool any_failure = std::any_of(results.rows.begin(), results.rows.end(),
                                         [](const BenchRow& r) { return is_bench_failure(r.status); });
    return any_failure ? kFail : kPass;
}

int cmd_variants(Context& ctx, const std::string& cmake_file)
{
    const fs::path root = ctx.catalog().root();
    const CourseVariants found = course_variants(ctx.catalog(), root / "bench", root);
    if (!cmake_file.empty()) {
        std::ofstream out(cmake_file);
        out << variants_cmake(found);
        if (!out) throw UsageError("cannot write " + cmake_file);
        return kPass;
    }
    fmt::print("{:<10} {:<24} {:<10} {:<22} {}\n", "lab", "variant", "kind", "tasks", "check gives");
    for (const auto& [lab, v] : found.variants)
        fmt::print("{:<10} {:<24} {:<10} {:<22} {}\n", lab->id, for_terminal(v.id), kind_name(v.kind),
                   for_terminal(fmt::format("{}", fmt::join(v.tasks, ","))), v.expect);  // padded as one column
    for (const auto& p : found.problems) fmt::print(stderr, "hpclab: {}\n", for_terminal(p));
    return found.problems.empty() ? kPass : kUsage;
}

}  // namespace hpclab::cli
