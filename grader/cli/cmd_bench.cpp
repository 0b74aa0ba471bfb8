// hpclab bench: the reference solutions and the variants in bench/<lab>/,
// each timed on every timed task over a sweep of sizes, every call
// verified. A benchmark, not a test: it asserts nothing about time; it
// fails only when a variant does not compile or computes wrong results.
#include "commands.h"
#include "util/text.h"

#include "bench/build_commit.h"
#include "bench/measure.h"
#include "bench/metrics.h"
#include "bench/plan.h"
#include "bench/render.h"
#include "run/gpu_turns.h"
#include "util/clock_text.h"
#include "student/committed_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

// A run's exchange holds every call's inputs at once: past this share of
// the host's memory the run would swap, or be killed, rather than measure.
constexpr double kHostMemoryShare = 0.7;

struct BuiltVariant {
    std::optional<fs::path> program;
    std::string error;  // the first lines of the compiler's messages
};

std::vector<const LabInfo*> chosen_labs(const Context& ctx, const BenchArgs& args)
{
    if (args.labs.empty()) return labs_with_sweeps(ctx.catalog());
    std::vector<const LabInfo*> labs;
    for (const auto& id : args.labs) {
        const LabInfo* lab = &ctx.lab(id);
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

std::map<std::string, BuiltVariant> build_variants(Context& ctx, const LabPlan& plan)
{
    std::map<std::string, BuiltVariant> built;
    for (const auto& v : plan.variants) {
        const std::string cache_name = v.id == kSolutionId ? "solution" : "bench-" + v.id;
        try {
            const BuildResult b = build_and_report(ctx, *plan.lab, v.source, cache_name, false, v.link);
            built[v.id] = b.ok ? BuiltVariant {b.program, ""}
                               : BuiltVariant {std::nullopt, "does not build: " +
                                                                 first_lines(trim_diagnostics(b.diagnostics, ctx.catalog().root(), 3), 2)};
        } catch (const SetupError& e) {  // one variant's (a toolkit library missing): its rows, not the table
            built[v.id] = BuiltVariant {std::nullopt, first_lines(e.what(), 2)};
        }
    }
    return built;
}

// Runs one lab's plan, appending its rows; the copy's bandwidth comes from
// the lab's first run that could measure it.
class LabBench {
public:
    LabBench(Context& ctx, const LabPlan& plan, std::size_t& done, std::size_t total, GpuTurns& turns)
        : ctx_(ctx), plan_(plan), done_(done), total_(total), turns_(turns)
    {
    }

    double run(const std::map<std::string, BuiltVariant>& built, std::vector<BenchRow>& rows)
    {
        for (const TaskPlan& tp : plan_.tasks) {
            const TaskSpec* spec = find_task_spec(plan_.lab->id, tp.task->id);
            if (!spec) throw std::logic_error("lab " + plan_.lab->id + " task " + tp.task->id + " has no spec");
            for (const Params& params : tp.sizes) {
                const BenchCall call {plan_.lab, tp.task, spec, params, bench_calls(tp, params), fresh_seed()};
                std::optional<BenchRow> memory_bound;
                bool copy_ran = false;
                for (BenchRow& row : measure_interleaved(call, tp, built)) {
                    if (row.flops == 0 && row.bytes > 0) memory_bound = row;
                    copy_ran = copy_ran || row.is_copy();
                    rows.push_back(std::move(row));
                }
                if (memory_bound && !copy_ran) copy_groups_.push_back(*memory_bound);
            }
        }
        // Where no copy ran at a size (no bench/<lab>/cudamemcpy.cu), the
        // 256 MiB copy's bandwidth scaled to it, once that is known.
        if (copy_gb_per_s_ > 0)
            for (const auto& any : copy_groups_) rows.push_back(copy_row(any, copy_gb_per_s_));
        return copy_gb_per_s_;
    }

private:
    struct Measured {
        BenchRow row;                     // measured, or why it has no times
        std::optional<RunReport> report;  // the run, where it completed
    };

    // Every variant of one size, in kBenchRounds rounds of half the calls,
    // the second in the reverse order, each row from both rounds' calls:
    // a variant and the copy it is compared with are timed close together,
    // twice, rather than once each at moments apart (at small sizes the
    // copy alone measured 41 and 17 us in one run on the H100).
    std::vector<BenchRow> measure_interleaved(const BenchCall& call, const TaskPlan& tp,
                                              const std::map<std::string, BuiltVariant>& built)
    {
        std::vector<const BenchVariant*> variants;
        for (const BenchVariant& v : plan_.variants)
            if (v.covers(tp.task->id)) variants.push_back(&v);
        BenchCall round_call = call;
        round_call.reps = (call.reps + kBenchRounds - 1) / kBenchRounds;
        std::vector<Measured> got(variants.size());
        for (int round = 0; round < kBenchRounds; ++round)
            for (std::size_t k = 0; k < variants.size(); ++k) {
                const std::size_t i = round % 2 == 0 ? k : variants.size() - 1 - k;
                Measured m = measure(round_call, *variants[i], built.at(variants[i]->id));
                if (round == 0 || !got[i].report) got[i] = std::move(m);  // a failure is the row's
                else if (!m.report) got[i] = std::move(m);
                else got[i].report->calls.insert(got[i].report->calls.end(), m.report->calls.begin() + 1,
                                                 m.report->calls.end());  // its warm-up left out
            }
        std::vector<BenchRow> rows;
        for (Measured& m : got) rows.push_back(m.report ? measured_row(std::move(m.row), *m.report) : std::move(m.row));
        return rows;
    }

    Measured measure(const BenchCall& call, const BenchVariant& v, const BuiltVariant& built)
    {
        BenchRow row = bench_row(call, v);
        std::optional<RunReport> kept;
        ++done_;
        fmt::print(stderr, "[{:>3}/{}] {} {} {} {} ... ", done_, total_, call.lab->id, call.task->id,
                   format_params(call.params), v.id);
        std::fflush(stderr);
        const std::uint64_t host_needed = exchange_bytes(*call.spec, call.params, 1 + call.reps);
        const std::uint64_t host = host_memory_bytes();
        if (!built.program) {
            row.status = BenchStatus::build_failed;
            row.message = built.error;
        } else if (host > 0 && host_needed > kHostMemoryShare * static_cast<double>(host)) {
            row.status = BenchStatus::too_large;
            row.message = fmt::format("{} calls at this size need {:.1f} GB of host memory (every call's inputs are "
                                      "made in advance); this machine has {:.1f} GB: try fewer --reps",
                                      1 + call.reps, host_needed / 1e9, host / 1e9);
        } else {
            try {
                RunRequest req =
                    bench_request(call, v, *built.program, copy_gb_per_s_ == 0, ctx_.gpu().memory_bytes);
                // A shared turn on the GPU against every other hpclab
                // (run/gpu_turns.h), a turn per run: a check's timed calls,
                // which take the GPU alone, never run beside it. Not alone: a
                // turn that also covers the making of the inputs on the host
                // kept every other check off the GPU meanwhile (the H100's test
                // suite: its smoke test of two sizes took 80 s instead of 17).
                // The numbers the docs quote come from a quiet machine
                // (scripts/gpu-suite.sh, part bench), where nothing shares it.
                RunReport report = while_program_runs(&turns_, false, req, [&] { return run_task(req); });
                if (copy_gb_per_s_ == 0 && report.copy_bytes_per_s > 0) copy_gb_per_s_ = report.copy_bytes_per_s / 1e9;
                const BenchRow measured = measured_row(row, report);
                if (measured.status == BenchStatus::ok) kept = std::move(report);
                row = measured;
            } catch (const std::exception& e) {
                // One run hpclab could not make (no memory for the exchange, say)
                // costs its row, not the rows measured so far.
                row.status = BenchStatus::failed;
                row.message = std::string("hpclab could not run it: ") + e.what();
            }
        }
        if (row.timed()) fmt::print(stderr, "{}\n", format_ms(row.median_ms));
        else fmt::print(stderr, "{}: {}\n", status_name(row.status), row.message);
        return {std::move(row), std::move(kept)};
    }

    Context& ctx_;
    const LabPlan& plan_;
    std::size_t& done_;
    std::size_t total_;
    GpuTurns& turns_;
    double copy_gb_per_s_ = 0;
    std::vector<BenchRow> copy_groups_;  // a row of each memory-bound task and size
};

std::size_t count_runs(const std::vector<LabPlan>& plans)
{
    std::size_t n = 0;
    for (const auto& plan : plans)
        for (const auto& tp : plan.tasks)
            for (const auto& v : plan.variants)
                if (v.covers(tp.task->id)) n += tp.sizes.size() * kBenchRounds;
    return n;
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
    if (args.build_only) {
        int exit = kPass;
        for (const auto& plan : plans)
            for (const auto& [id, built] : build_variants(ctx, plan))
                if (!built.program) exit = kFail;
        return exit;
    }

    BenchResults results;
    results.header = make_header(ctx, args);
    results.header.complete = false;
    fmt::print("Benchmark on {}: {} runs\n", results.header.gpu, count_runs(plans));
    std::size_t done = 0;
    const std::size_t total = count_runs(plans);
    GpuTurns turns(ctx.gpu().uuid);
    for (const auto& plan : plans) {
        fmt::print("\n{}: {}\n", plan.lab->id, plan.lab->title);
        const auto built = build_variants(ctx, plan);
        std::fflush(stdout);
        LabBench lab(ctx, plan, done, total, turns);
        results.header.copy_gb_per_s = std::max(results.header.copy_gb_per_s, lab.run(built, results.rows));
        compute_metrics(results.rows, results.header.gpu);
        write_outputs(args, results);  // so far: a long bench stopped halfway keeps what it measured
    }
    results.header.complete = true;
    write_outputs(args, results);
    fmt::print("\n{}", render_table(results));
    const bool any_failure = std::any_of(results.rows.begin(), results.rows.end(),
                                         [](const BenchRow& r) { return is_bench_failure(r.status); });
    return any_failure ? kFail : kPass;
}

}  // namespace hpclab::cli
