#include "bench/bench_run.h"

#include "course/random.h"
#include "bench/measure.h"
#include "bench/metrics.h"
#include "gpu/gpu_turns.h"
#include "course/exit_status.h"
#include "util/rate_text.h"
#include "util/parallel.h"
#include "util/shown_path.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// A run's exchange holds every call's inputs at once: past this share of
// the host's memory the run would swap, or be killed, rather than measure.
constexpr double kHostMemoryShare = 0.7;

struct BuiltVariant {
    std::optional<fs::path> program;
    std::string error;  // the first lines of the compiler's messages
    std::string said;   // how its build went (build_outcome)
};

// Every variant built at once, up to half the CPUs (as the kit's baselines),
// quietly, then said in the plan's order: one after another, vecadd3's four
// took 7 s of the bench's 30 (call 22b).
std::map<std::string, BuiltVariant> build_variants(const BuildSite& site, const LabPlan& plan)
{
    std::vector<std::function<BuiltVariant()>> builds;
    for (const auto& v : plan.variants)
        builds.push_back([&site, &plan, &v] {
            const std::string cache_name = v.id == kSolutionId ? "solution" : "bench-" + v.id;
            try {
                const BuildResult b = build_and_report(site, *plan.lab, v.source, cache_name, true, v.link);
                if (!b.ok)
                    return BuiltVariant {std::nullopt,
                                         "does not build: " + first_lines(trim_diagnostics(b.diagnostics, site.root, 3), 2),
                                         build_outcome(b)};
                return BuiltVariant {b.program, "", build_outcome(b)};
            } catch (const SetupError& e) {  // one variant's (a toolkit library missing): its rows, not the table
                return BuiltVariant {std::nullopt, first_lines(e.what(), 2), "failed"};
            }
        });
    const int at_once = std::max(2, static_cast<int>(std::thread::hardware_concurrency()) / 2);
    std::vector<BuiltVariant> done = run_bounded(std::move(builds), at_once);
    std::map<std::string, BuiltVariant> built;
    for (std::size_t i = 0; i < done.size(); ++i) {
        fmt::print("Building {} ... {}\n", shown_path(plan.variants[i].source, site.root), done[i].said);
        built[plan.variants[i].id] = std::move(done[i]);
    }
    std::fflush(stdout);
    return built;
}

// Runs one lab's plan, appending its rows; the copy's bandwidth comes from
// the lab's first run that could measure it.
class LabBench {
public:
    LabBench(const GpuInfo& gpu, const LabPlan& plan, std::size_t& done, std::size_t total, GpuTurns& turns)
        : gpu_(gpu), plan_(plan), done_(done), total_(total), turns_(turns)
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
    // copy alone measured times apart by more than twice in one run).
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
                    bench_request(call, v, *built.program, copy_gb_per_s_ == 0, gpu_.memory_bytes);
                // A shared turn on the GPU against every other hpclab
                // (gpu/gpu_turns.h), a turn per run: a check's timed calls,
                // which take the GPU alone, never run beside it. Not alone: a
                // turn that also covers the making of the inputs on the host
                // kept every other check off the GPU meanwhile (a test suite's
                // smoke test of two sizes took almost five times as long).
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

    const GpuInfo& gpu_;
    const LabPlan& plan_;
    std::size_t& done_;
    std::size_t total_;
    GpuTurns& turns_;
    double copy_gb_per_s_ = 0;
    std::vector<BenchRow> copy_groups_;  // a row of each memory-bound task and size
};

}  // namespace

std::size_t count_runs(const std::vector<LabPlan>& plans)
{
    std::size_t n = 0;
    for (const auto& plan : plans)
        for (const auto& tp : plan.tasks)
            for (const auto& v : plan.variants)
                if (v.covers(tp.task->id)) n += tp.sizes.size() * kBenchRounds;
    return n;
}

bool build_every_variant(const BuildSite& site, const std::vector<LabPlan>& plans)
{
    bool all = true;
    for (const auto& plan : plans)
        for (const auto& [id, built] : build_variants(site, plan))
            if (!built.program) all = false;
    return all;
}

void run_bench(const BuildSite& site, const GpuInfo& gpu, const std::vector<LabPlan>& plans, BenchResults& results,
               const std::function<void(const BenchResults&)>& after_each_lab)
{
    std::size_t done = 0;
    const std::size_t total = count_runs(plans);
    GpuTurns turns(gpu.uuid);
    for (const auto& plan : plans) {
        fmt::print("\n{}: {}\n", plan.lab->id, plan.lab->title);
        const auto built = build_variants(site, plan);
        std::fflush(stdout);
        LabBench lab(gpu, plan, done, total, turns);
        results.header.copy_gb_per_s = std::max(results.header.copy_gb_per_s, lab.run(built, results.rows));
        compute_metrics(results.rows, results.header.gpu);
        after_each_lab(results);
    }
}

}  // namespace hpclab
