// hpclab run: run a lab like the course's programs do, or every lab as a table.
#include "commands.h"
#include "program_lab_view.h"

#include "check/evidence.h"

#include "course/image_task.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

// The sizes a run uses for one task: the lab's demo size with the size
// options on top, or every edge size.
std::vector<SizeCase> sizes_for(const TaskInfo& task, const RunArgs& args)
{
    if (args.all_sizes) {
        std::vector<SizeCase> out;
        for (const auto& s : task.sizes)
            if (!s.big || args.big) out.push_back(s);
        return out;
    }
    SizeCase c;
    c.params = task.demo;
    for (const auto& [name, value] : args.sizes) c.params[name] = value;
    c.why = args.sizes.empty() ? "the demo size" : "the size you gave";
    return {c};
}

void validate_size_options(const LabInfo& lab, const RunArgs& args)
{
    for (const auto& [name, value] : args.sizes)
        if (const std::string problem = size_option_problem(lab, name, value); !problem.empty())
            throw UsageError(problem);
    if (args.all_sizes && !args.sizes.empty())
        throw UsageError("--all-sizes runs the lab's own sizes: give either --all-sizes or size options, not both");
}

// After the build: without a GPU, what was compiled is all there is to say.
bool require_gpu(Context& ctx, std::string_view built)
{
    const GpuInfo& gpu = ctx.gpu();
    if (gpu.present) return true;
    fmt::print(stderr, "hpclab: no GPU here ({}), so nothing was run{}.\n", gpu.why_not, built);
    return false;
}

int run_all(Context& ctx, const RunArgs& args)
{
    if (!require_gpu(ctx, " (hpclab build <lab> compiles a lab without one)")) return kSkipped;
    const GpuInfo& gpu = ctx.gpu();
    fmt::print("Every lab's {} on {} (compute capability {}.{}, driver CUDA {})\n\n",
               args.variant == Variant::solution ? "reference solution" : "code (yours, from labs/)", gpu.name,
               gpu.cc_major, gpu.cc_minor, gpu.driver_string());
    const std::string header = fmt::format("{:<10} {:<7} {:<26} {:<20} {:>12} {:>14}", "lab", "task", "size", "check",
                                           "GPU time", "throughput");
    fmt::print("{}\n{}\n", header, std::string(header.size(), '-'));
    nlohmann::json rows = nlohmann::json::array();
    int exit = kPass;
    int passed = 0, total = 0;
    // Compiled at once, then the rows in order: compiled in a row, they were most of the table's time.
    // A lab whose program is the student's own has none: judged whole, not a row of tasks at a size.
    std::vector<std::future<std::optional<fs::path>>> programs;
    for (const auto& lab : ctx.catalog().labs())
        programs.push_back(whole_program_commands(lab) ? decltype(programs)::value_type {}
                                                       : start_build(ctx.build_site(), lab, args.variant));
    for (std::size_t l = 0; l < ctx.catalog().labs().size(); ++l) {
        const LabInfo& lab = ctx.catalog().labs()[l];
        if (!programs[l].valid()) {
            fmt::print("{:<10} (your own program: hpclab check {})\n", lab.id, lab.id);
            continue;
        }
        const auto program = programs[l].get();
        for (const auto& task : lab.tasks) {
            ++total;
            std::string check = "COMPILE ERROR", time = "-", tput = "-";
            RunReport r;
            if (program) {
                RunOptions o;
                o.timed = true;
                o.seed = args.seed;
                r = run_one(ctx.gpu(), lab, task, *program, task.demo, o);
                const TaskVerdict v = verdict_of_run(task, task.demo, r);
                check = verdict_word(v);
                time = format_ms(r.median_gpu_ms());
                tput = throughput(r);
                exit = worse_exit(exit, exit_of(v, r));
                passed += v.verdict == Verdict::pass;
            } else {
                exit = worse_exit(exit, kFail);
            }
            fmt::print("{:<10} {:<7} {:<26} {:<20} {:>12} {:>14}\n", lab.id, task.id, format_params(task.demo), check,
                       time, tput);
            std::fflush(stdout);
            rows.push_back({{"lab", lab.id},
                            {"task", task.id},
                            {"size", task.demo},
                            {"check", check},
                            {"gpu_ms", r.median_gpu_ms()},
                            {"wall_ms", r.median_host_ms()},
                            {"bytes", r.work.bytes},
                            {"flops", r.work.flops},
                            {"seed", r.seed},
                            {"passed", check == "OK"}});
        }
    }
    fmt::print("\n{} of {} tasks passed.\n", passed, total);
    if (!args.json.empty()) {
        nlohmann::json doc = {{"gpu", gpu.name},       {"gpu_uuid", gpu.uuid}, {"driver", gpu.driver_string()},
                              {"variant", variant_name(args.variant)}, {"rows", rows}};
        std::ofstream(args.json) << doc.dump(2) << '\n';
    }
    return exit;
}

std::vector<const TaskInfo*> tasks_to_run(const LabInfo& lab, const std::string& only)
{
    std::vector<const TaskInfo*> tasks;
    if (only.empty()) {
        for (const auto& t : lab.tasks) tasks.push_back(&t);
        return tasks;
    }
    const TaskInfo* t = lab.find_task(only);
    if (!t) throw UsageError(lab.unknown_task(only));
    return {t};
}

// An image lab runs on a real image unless sizes were asked for.
std::optional<GrayImage> image_to_run(const LabInfo& lab, const RunArgs& args)
{
    const bool image_lab = !lab.image.empty();
    if (!args.image.empty() && !image_lab) throw UsageError(fmt::format("lab {} takes no image", lab.id));
    if (!args.output.empty() && !image_lab) throw UsageError(fmt::format("lab {} writes no image", lab.id));
    if (!image_lab || !args.sizes.empty() || args.all_sizes) {
        if (!args.image.empty())
            throw UsageError("--image gives the size itself: leave out the size options and --all-sizes");
        return std::nullopt;
    }
    try {
        return read_pgm(args.image.empty() ? lab.lab_dir / lab.image : fs::path(args.image));
    } catch (const PgmError& e) {
        throw UsageError(e.what());
    }
}

// The output image of an image task, where --output or the default name says.
int write_output_image(const GrayImage& result, const GrayImage& input, const std::string& file)
{
    try {
        write_pgm(file, result);
        fmt::print("  Wrote the output image to {} ({} x {}; the input was {} x {})\n", file, result.width,
                   result.height, input.width, input.height);
        return kPass;
    } catch (const PgmError& e) {
        fmt::print(stderr, "  hpclab: {}\n", e.what());
        return kUsage;
    }
}

// One task at one size: run, print, judge, and the image written.
int run_size(Context& ctx, const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
             const SizeCase& size, const RunArgs& args, const std::optional<GrayImage>& image, bool one_task)
{
    const auto* image_task = dynamic_cast<const ImageTask*>(find_task_spec(lab.id, task.id));
    RunOptions o {.timed = !args.all_sizes, .seed = args.seed, .big = size.big};
    Params params = size.params;
    std::optional<GrayImage> result;
    if (image && image_task) {
        params = image_task->params_for(*image);
        o.fill_inputs = [&](CallBuffers& call) { image_task->fill_from(*image, call); };
        o.on_first_outputs = [&](const CallBuffers& call) { result = image_task->output_image(params, call, image->maxval); };
    }
    fmt::print("\nTask {} ({}), {}{}:\n", task.id, task.title, format_params(params),
               args.all_sizes ? " - " + size.why : "");
    const RunReport r = run_one(ctx.gpu(), lab, task, program, params, o);
    const TaskVerdict v = verdict_of_run(task, params, r);
    print_run(stdout, r, v);
    int exit = exit_of(v, r);
    if (is_failure(v.verdict))
        fmt::print("  Replay this run with --seed {}. Stuck? Read docs/{}.md\n", r.seed, lab.id);
    if (result && r.status == RunStatus::completed) {
        const std::string file = !args.output.empty() && one_task
                                     ? args.output
                                     : fmt::format("{}-{}{}.pgm", lab.id, task.id,
                                                   args.variant == Variant::solution ? "-solution" : "");
        exit = worse_exit(exit, write_output_image(*result, *image, file));
    }
    return exit;
}

}  // namespace

int cmd_run(Context& ctx, const RunArgs& args)
{
    if (args.all) {
        if (!args.lab.empty()) throw UsageError("give a lab or --all, not both");
        return run_all(ctx, args);
    }
    if (args.lab.empty()) throw UsageError("which lab? (hpclab list shows them; hpclab run --all runs every one)");
    if (!args.json.empty()) throw UsageError("--json goes with --all");
    const LabInfo& lab = ctx.lab(args.lab);
    const WholeProgramCommands* whole = whole_program_commands(lab);
    if (whole && (!args.sizes.empty() || args.all_sizes || !args.image.empty() || args.seed))
        throw UsageError(lab.id + " is your own program: it has no size, image or seed options");
    validate_size_options(lab, args);
    const std::vector<const TaskInfo*> tasks = tasks_to_run(lab, args.task);
    const std::optional<GrayImage> image = image_to_run(lab, args);

    fmt::print("{}: {}\n", lab.id, lab.title);
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab: cannot compile lab programs here ({}), so nothing was run.\n",
                   ctx.toolchain().unavailable);
        return kSkipped;
    }
    const auto program = build_program(ctx.build_site(), lab, args.variant, false);  // compile errors first, GPU or not
    if (!program) return kFail;
    if (!require_gpu(ctx, ": your code compiles")) return kSkipped;
    // Running a whole program is checking it: one run, judged against hpclab's own observations.
    if (whole) return whole->check(ctx, lab, source_of(lab, args.variant), variant_name(args.variant));
    fmt::print("GPU: {}\n", ctx.gpu().name);
    int exit = kPass;
    for (const TaskInfo* task : tasks)
        for (const SizeCase& size : sizes_for(*task, args))
            exit = worse_exit(exit, run_size(ctx, lab, *task, *program, size, args, image, tasks.size() == 1));
    return exit;
}

}  // namespace hpclab::cli
