#include "bench/metrics.h"

#include "util/rate_text.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

namespace hpclab {

namespace {

using GroupKey = std::tuple<std::string, std::string, Params>;

void set_throughput(BenchRow& row)
{
    row.gbps = row.gflops = 0;
    if (!row.timed()) return;
    const double seconds = row.median_ms / 1e3;
    if (row.bytes > 0) row.gbps = row.bytes / seconds / 1e9;
    if (row.compute_bound()) row.gflops = row.flops / seconds / 1e9;
}

// A row's extremes: a copy scaled from one big copy has none (its own time, both ways).
double fastest(const BenchRow& r) { return r.min_ms > 0 ? r.min_ms : r.median_ms; }
double slowest(const BenchRow& r) { return r.max_ms > 0 ? r.max_ms : r.median_ms; }

// The fastest rate a library variant of a compute-bound task reached
// anywhere in the results (cuBLAS's SGEMM at matmul's largest size): the
// ceiling of a compute-bound task that ran no library beside it, measured
// on this GPU rather than taken from the grading model. Null: none ran.
const BenchRow* fastest_library_rate(const std::vector<BenchRow>& rows)
{
    const BenchRow* best = nullptr;
    for (const BenchRow& r : rows)
        if (r.timed() && r.kind == "library" && r.gflops > 0 && (!best || r.gflops > best->gflops)) best = &r;
    return best;
}

std::string measured_peak_name(const BenchRow& peak)
{
    return fmt::format("{} at {} / {}, {}, {} (the fastest library rate in these results)", peak.variant, peak.lab,
                       peak.task, format_params(peak.params), format_rate(0, peak.gflops * 1e9));
}

// A compute-bound row against a rate measured elsewhere (not beside it): its
// spread is both rows' (time_ratio's, scaled as the copy's is below).
void against_peak(BenchRow& r, const BenchRow& peak)
{
    r.fraction_of_limit = r.gflops / peak.gflops;
    r.limit_name = measured_peak_name(peak);
    const TimeRatio t = time_ratio(peak, r);
    r.limit_low = r.fraction_of_limit * t.low / t.value;
    r.limit_high = r.fraction_of_limit * t.high / t.value;
}

void set_limits(std::vector<BenchRow*>& group, std::string_view gpu_name, const BenchRow* peak)
{
    const BenchRow* copy = nullptr;
    const BenchRow* library = nullptr;  // the fastest library variant, the copy aside
    for (const BenchRow* r : group) {
        if (!r->timed()) continue;
        if (r->is_copy()) copy = r;
        else if (r->kind == "library" && (!library || r->median_ms < library->median_ms)) library = r;
    }
    for (BenchRow* r : group) {
        r->fraction_of_limit = r->ratio_to_library = 0;
        r->limit_low = r->limit_high = r->library_low = r->library_high = 0;
        r->limit_name.clear();
        r->library.clear();
        if (!r->timed()) continue;
        if (r->compute_bound()) {
            if (library && library->gflops > 0) {
                r->fraction_of_limit = r->gflops / library->gflops;
                r->limit_name = library->variant + " at this size";
                const TimeRatio t = time_ratio(*library, *r);
                r->limit_low = t.low, r->limit_high = t.high;
            } else if (peak) {
                against_peak(*r, *peak);
            } else if (gpu_name.find("H100") != std::string_view::npos) {
                r->fraction_of_limit = r->gflops / kModelSgemmGflops;
                r->limit_name = std::string(kModelSgemmLimit);
                r->limit_low = r->fraction_of_limit * r->median_ms / slowest(*r);
                r->limit_high = r->fraction_of_limit * r->median_ms / fastest(*r);
            }
        } else if (r->bytes > 0 && copy && copy->gbps > 0) {
            r->fraction_of_limit = r->gbps / copy->gbps;
            // The same bytes at the same size: the bandwidths' ratio is the
            // times'; a copy scaled from one big copy spreads only by the row.
            const TimeRatio t = time_ratio(*copy, *r);
            r->limit_low = r->fraction_of_limit * t.low / t.value;
            r->limit_high = r->fraction_of_limit * t.high / t.value;
            // The copy row's own title: a device copy, or (host-memory labs) the call's copies alone.
            r->limit_name = copy->scaled_copy() ? std::string(kScaledCopyLimit)
                            : copy->title.empty() ? std::string(kCopyAtSizeLimit)
                                                  : copy->title + " at this size";
        }
        const BenchRow* base = library ? library : (!r->compute_bound() ? copy : nullptr);
        if (base) {
            const TimeRatio t = time_ratio(*base, *r);
            r->ratio_to_library = t.value;
            r->library_low = t.low, r->library_high = t.high;
            r->library = base->variant;
        }
    }
}

}  // namespace

TimeRatio time_ratio(const BenchRow& base, const BenchRow& row)
{
    if (!base.timed() || !row.timed()) return {};
    return {base.median_ms / row.median_ms, fastest(base) / slowest(row), slowest(base) / fastest(row)};
}

void compute_metrics(std::vector<BenchRow>& rows, std::string_view gpu_name)
{
    std::map<GroupKey, std::vector<BenchRow*>> groups;
    for (auto& r : rows) {
        set_throughput(r);
        groups[{r.lab, r.task, r.params}].push_back(&r);
    }
    const BenchRow* peak = fastest_library_rate(rows);
    for (auto& [key, group] : groups) set_limits(group, gpu_name, peak);
}

}  // namespace hpclab
