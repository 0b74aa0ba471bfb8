#include "run/run_recipe.h"

#include <sched.h>

#include <algorithm>
#include <stdexcept>

namespace hpclab {

namespace {

RunRequest request_for(const RunTarget& t)
{
    RunRequest req;
    req.lab = t.lab;
    req.task = t.task;
    req.spec = find_task_spec(t.lab->id, t.task->id);
    if (!req.spec) throw std::logic_error("lab " + t.lab->id + " task " + t.task->id + " has no spec in hpclab");
    req.params = t.params;
    req.program = t.program;
    req.facts = t.facts;
    req.seed = t.seed;
    req.gpu_memory_bytes = t.gpu_memory_bytes;
    req.gpu_minor = t.gpu_minor;
    req.gpu_uuid = t.gpu_uuid;
    req.wall_limit_s = t.big ? t.lab->big_wall_limit_s : t.lab->wall_limit_s;
    return req;
}

// The last two CPUs this process may use. The time of a call includes the
// host's part (the launches, the wait). On the H100, one program ran every
// call up to 20% slower than another running the same code; the core each
// ran on is one difference between them that hpclab can remove.
std::vector<int> last_two_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
    std::vector<int> all;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) all.push_back(c);
    if (all.size() < 4) return {};  // too few to set two aside
    return {all.end() - 2, all.end()};
}

}  // namespace

const std::vector<int>& timing_cpus()
{
    static const std::vector<int> cpus = last_two_cpus();
    return cpus;
}

const std::vector<int>& untimed_cpus()
{
    static const std::vector<int> cpus = [] {
        std::vector<int> rest;
        const std::vector<int>& timed = timing_cpus();
        if (timed.empty()) return rest;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0) return rest;
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set) && std::find(timed.begin(), timed.end(), c) == timed.end()) rest.push_back(c);
        return rest;
    }();
    return cpus;
}

RunRequest correctness_run(const RunTarget& target)
{
    RunRequest req = request_for(target);
    req.trace = RunRequest::Trace::every_call;
    return req;
}

RunRequest timed_run(const RunTarget& target, const TimedOptions& o)
{
    RunRequest req = request_for(target);
    req.ncalls = 1 + static_cast<std::uint32_t>(std::max(1, o.reps));  // the first call warms up
    req.input_sets = std::min(kTimingInputSets, req.ncalls);
    req.flush_l2 = true;
    req.trace = RunRequest::Trace::none;  // CUPTI would be in the times
    req.outputs_only = true;
    req.judge_outputs = o.judge_outputs;
    req.measure_copy = o.measure_copy;
    req.cpus = timing_cpus();
    req.reference_budget = kTimedReferenceBudget;
    return req;
}

}  // namespace hpclab
