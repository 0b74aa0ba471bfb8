#include "bench/measure.h"

#include "run/run_recipe.h"

#include <fmt/format.h>

#include <algorithm>
#include <unistd.h>

namespace hpclab {

RunRequest bench_request(const BenchCall& call, const BenchVariant& variant, const std::filesystem::path& program,
                         bool measure_copy, std::uint64_t gpu_memory_bytes)
{
    // The sweeps' largest sizes take the time the lab allows its big sizes.
    const RunTarget target {.lab = call.lab,
                            .task = call.task,
                            .program = program,
                            .params = call.params,
                            .seed = call.seed,
                            .gpu_memory_bytes = gpu_memory_bytes,
                            .big = true};
    return timed_run(target, {.reps = call.reps, .judge_outputs = !variant.is_limit(), .measure_copy = measure_copy,
                              .measure_harness = true});
}

BenchRow bench_row(const BenchCall& call, const BenchVariant& variant)
{
    BenchRow row;
    row.lab = call.lab->id;
    row.task = call.task->id;
    row.variant = variant.id;
    row.kind = std::string(kind_name(variant.kind));
    row.title = variant.title;
    row.params = call.params;
    const Work w = call.spec->work(call.params);
    row.bytes = w.bytes;
    row.flops = w.flops;
    row.reps = call.reps;
    return row;
}

namespace {

// The first failing call, in a line: where, expected and got.
std::string describe_failed_call(const RunReport& report, const CallReport& bad)
{
    const auto k = static_cast<std::size_t>(&bad - report.calls.data());
    std::string what;
    if (!bad.inputs_modified.empty())
        what = fmt::format("wrote into its input {}", fmt::join(bad.inputs_modified, ", "));
    else if (!bad.check.ok())
        what = bad.check.summary + (bad.check.details.empty() ? "" : "; " + bad.check.details.front());
    else
        what = fmt::format("wrote past the end of {}", fmt::join(bad.guards_damaged, ", "));
    return fmt::format("call {} of {}{}: {}", k + 1, report.calls.size(), k == 0 ? " (the warm-up)" : "", what);
}

}  // namespace

BenchRow measured_row(BenchRow row, const RunReport& report)
{
    if (report.status == RunStatus::too_large) {
        row.status = BenchStatus::too_large;
        row.message = report.status_message;
        return row;
    }
    if (const CallReport* bad = report.first_failure()) {
        row.status = BenchStatus::wrong;
        row.message = describe_failed_call(report, *bad);
        return row;
    }
    if (report.status != RunStatus::completed || report.calls.size() < 2 ||
        !std::all_of(report.calls.begin(), report.calls.end(), [](const CallReport& c) { return c.done; })) {
        row.status = BenchStatus::failed;
        row.message = report.status_message.empty() ? "the run ended before every call was made" : report.status_message;
        return row;
    }
    // The median as the runner computes it for every command; the extremes
    // show the spread. The program's own event times, not hpclab's clock:
    // every variant is the course's own code (bench/<lab>/), trusted, and a
    // table of kernel times against a copy's needs no handshake in them (a
    // timed call of vecadd3 lasts about as long as the handshake itself).
    row.median_ms = report.median_gpu_ms();
    const auto [lo, hi] = std::minmax_element(report.calls.begin() + 1, report.calls.end(),
                                              [](const CallReport& a, const CallReport& b) { return a.gpu_ms < b.gpu_ms; });
    row.min_ms = lo->gpu_ms;
    row.max_ms = hi->gpu_ms;
    row.reps = static_cast<int>(report.calls.size()) - 1;
    row.status = BenchStatus::ok;
    return row;
}

BenchRow copy_row(const BenchRow& any, double copy_gb_per_s)
{
    BenchRow row;
    row.lab = any.lab;
    row.task = any.task;
    row.variant = std::string(kCopyVariantId);
    row.kind = std::string(kind_name(VariantKind::limit));
    row.title = std::string(kCopyTitle);
    row.params = any.params;
    row.bytes = any.bytes;
    row.reps = 0;  // what makes it a scaled copy (BenchRow::scaled_copy)
    // The time this size's bytes take at the copy's bandwidth.
    row.median_ms = row.min_ms = row.max_ms = any.bytes / (copy_gb_per_s * 1e9) * 1e3;
    row.status = BenchStatus::ok;
    row.message = "device-to-device copy, best of 5 copies of 256 MiB in this run; "
                  "the time is this size's bytes at that bandwidth";
    return row;
}

std::uint64_t exchange_bytes(const TaskSpec& spec, const Params& params, std::uint32_t ncalls)
{
    std::uint64_t per_call = 0;
    for (const auto& d : spec.buffers(params)) per_call += d.bytes();
    return per_call * ncalls;
}

std::uint64_t host_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace hpclab
