#include "check/plan.h"

#include "run/task_runner.h"

#include <algorithm>

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

std::vector<PlannedRun> plan_runs(const LabInfo& lab, const std::vector<const TaskInfo*>& tasks, bool big,
                                  bool sanitizer, std::uint64_t gpu_memory_bytes)
{
    std::vector<PlannedRun> plan;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const TaskSpec& spec = *find_task_spec(lab.id, tasks[i]->id);
        for (const auto& s : tasks[i]->sizes)
            if (!s.big || (big && fits_gpu(spec, s.params, gpu_memory_bytes))) plan.push_back({i, s, ""});
        if (!sanitizer) continue;
        for (const auto& s : sanitizer_sizes(spec, *tasks[i], 2)) plan.push_back({i, s, "memcheck"});
        // Racecheck where blocks share memory: a shared_memory task's cache, a
        // warp_shuffle task's warps' sums.
        if (!tasks[i]->technique.empty()) {
            if (tasks[i]->racecheck_size) plan.push_back({i, *tasks[i]->racecheck_size, "racecheck"});
            else
                for (const auto& s : sanitizer_sizes(spec, *tasks[i], 1)) plan.push_back({i, s, "racecheck"});
        }
    }
    const auto phase = [&](const PlannedRun& r) {
        if (r.sanitizer()) return 1;
        return total_bytes(*find_task_spec(lab.id, tasks[r.task]->id), r.size.params) <= kSmallRunBytes ? 0 : 2;
    };
    std::stable_sort(plan.begin(), plan.end(), [&](const PlannedRun& a, const PlannedRun& b) { return phase(a) < phase(b); });
    return plan;
}

}  // namespace hpclab
