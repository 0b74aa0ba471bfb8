#include "check/plan.h"

#include "course/invariants.h"
#include "run/task_runner.h"
#include "util/mix64.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace hpclab {

namespace {

std::int64_t volume(const Params& p)
{
    std::int64_t v = 1;
    for (const auto& [k, x] : p) v *= std::max<std::int64_t>(x, 1);
    return v;
}

bool ragged(const Params& p)
{
    return std::any_of(p.begin(), p.end(), [](const auto& kv) { return kv.second > 1 && kv.second % 32 != 0; });
}

}  // namespace

std::uint64_t total_bytes(const TaskSpec& spec, const Params& p)
{
    std::uint64_t b = 0;
    for (const auto& d : spec.buffers(p)) b += d.bytes();
    return b;
}

std::vector<SizeCase> sanitizer_sizes(const TaskSpec& spec, const TaskInfo& task, std::size_t at_most)
{
    std::vector<SizeCase> small;
    for (const auto& s : task.sizes)
        if (!s.big && total_bytes(spec, s.params) <= kSmallRunBytes) small.push_back(s);
    std::stable_sort(small.begin(), small.end(), [&](const SizeCase& a, const SizeCase& b) {
        const auto ba = total_bytes(spec, a.params), bb = total_bytes(spec, b.params);
        return ba != bb ? ba > bb : volume(a.params) > volume(b.params);
    });
    std::vector<SizeCase> out;
    // A ragged size first (a partial block is where out-of-bounds accesses live), then the largest.
    if (const auto it = std::find_if(small.begin(), small.end(), [](const SizeCase& s) { return ragged(s.params); });
        it != small.end())
        out.push_back(*it);
    for (const auto& s : small) {
        if (out.size() >= at_most) break;
        if (std::none_of(out.begin(), out.end(), [&](const SizeCase& o) { return o.params == s.params; }))
            out.push_back(s);
    }
    if (out.size() > at_most) out.resize(at_most);
    return out;
}

bool fits_gpu(const TaskSpec& spec, const Params& params, std::uint64_t gpu_memory_bytes)
{
    return fits_gpu_memory(spec.buffers(params), gpu_memory_bytes);
}

std::vector<std::size_t> plain_size_order(const std::vector<std::uint64_t>& bytes, std::uint64_t seed)
{
    std::vector<std::size_t> order(bytes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (order.empty()) return order;
    const auto by_bytes = [&](std::size_t a, std::size_t b) { return bytes[a] < bytes[b]; };
    // Fisher-Yates from the seed: the same order on a regrade.
    std::uint64_t state = seed;
    const auto draw = [&](std::size_t below) {
        state = mix64(state + 0x9E3779B97F4A7C15ull);
        return static_cast<std::size_t>(state % below);
    };
    for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[draw(i + 1)]);
    // Never the largest first: a larger size always comes after the first
    // (a buffer sized by the first call is too small for it) ...
    const std::uint64_t most = bytes[*std::max_element(order.begin(), order.end(), by_bytes)];
    if (bytes[order[0]] == most) {
        std::vector<std::size_t> smaller;
        for (std::size_t i = 1; i < order.size(); ++i)
            if (bytes[order[i]] < most) smaller.push_back(i);
        if (!smaller.empty()) std::swap(order[0], order[smaller[draw(smaller.size())]]);
    }
    // ... and the smallest runs again last, after the largest.
    order.push_back(*std::min_element(order.begin(), order.end(), by_bytes));
    return order;
}

std::vector<PlannedRun> range_ends_runs(const TaskSpec& spec, const TaskInfo& task, std::size_t index)
{
    std::vector<PlannedRun> runs;
    if (!task.judged_by(Invariant::range_ends)) return runs;
    for (const SizeCase& s : sanitizer_sizes(spec, task, 1)) {
        const std::vector<InputFill> fills = spec.input_fills(s.params);
        if (fills.empty() || !all_inputs_filled(spec, s.params)) continue;
        for (const InputEnds ends : every_input_end()) {
            PlannedRun run {index, s, ""};
            run.ends = ends;
            run.size.why = describe_input_ends(fills, ends);
            runs.push_back(std::move(run));
        }
    }
    return runs;
}

std::optional<SizeCase> trip_size(const LabInfo& lab, const TaskSpec& spec, const TaskInfo& task, int sm_count)
{
    const ParamInfo* length = lab.params.size() == 1 ? &lab.params[0] : lab.find_param("n");
    if (!length || sm_count <= 0) return std::nullopt;
    const std::int64_t n = 2 * 2048 * std::int64_t {sm_count} + 7;
    if (n > length->max || n < length->min) return std::nullopt;
    Params params;
    if (lab.params.size() > 1) {
        const std::vector<SizeCase> others = sanitizer_sizes(spec, task, 1);
        if (others.empty()) return std::nullopt;
        params = others.front().params;
    }
    params[length->name] = n;
    if (total_bytes(spec, params) > kTripRunBytes) return std::nullopt;
    return SizeCase {params,
                     fmt::format("every thread of a grid the GPU holds at once ({} multiprocessors of at most 2048 "
                                 "threads) loops twice over the data, the last trip partial",
                                 sm_count),
                     false};
}

std::vector<PlannedRun> plan_runs(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks, bool big,
                                  bool sanitizer, std::uint64_t gpu_memory_bytes, std::uint64_t order_seed,
                                  int sm_count)
{
    std::vector<PlannedRun> plan;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const TaskSpec& spec = *find_task_spec(lab.id, tasks[i]->id);
        std::vector<SizeCase> plain;
        std::vector<std::uint64_t> bytes;
        for (const auto& s : tasks[i]->sizes) {
            if (!s.big) {
                plain.push_back(s);
                bytes.push_back(total_bytes(spec, s.params));
            } else if (big && fits_gpu(spec, s.params, gpu_memory_bytes)) {
                plan.push_back({i, s, ""});
            }
        }
        std::vector<bool> ran(plain.size(), false);
        for (std::size_t k : plain_size_order(bytes, mix64(order_seed ^ (i + 1)))) {
            PlannedRun run {i, plain[k], ""};
            if (ran[k]) {
                run.again = 1;
                run.size.why = kAgainWhy;
            }
            ran[k] = true;
            plan.push_back(std::move(run));
        }
        for (auto& run : range_ends_runs(spec, *tasks[i], i)) plan.push_back(std::move(run));
        if (!sanitizer) continue;
        for (const auto& s : sanitizer_sizes(spec, *tasks[i], 2)) plan.push_back({i, s, "memcheck"});
        if (auto trip = trip_size(lab, spec, *tasks[i], sm_count)) plan.push_back({i, std::move(*trip), "memcheck"});
        // Racecheck where blocks share memory: a shared_memory task's cache, a
        // warp_shuffle task's warps' sums.
        if (!tasks[i]->technique.empty()) {
            if (tasks[i]->racecheck_size) plan.push_back({i, *tasks[i]->racecheck_size, "racecheck"});
            else
                for (const auto& s : sanitizer_sizes(spec, *tasks[i], 1)) plan.push_back({i, s, "racecheck"});
        }
    }
    const auto phase = [&](const PlannedRun& r) { return r.sanitizer() ? 1 : r.size.big ? 2 : 0; };
    std::stable_sort(plan.begin(), plan.end(), [&](const PlannedRun& a, const PlannedRun& b) { return phase(a) < phase(b); });
    return plan;
}

}  // namespace hpclab
