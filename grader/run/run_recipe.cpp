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
    req.wall_limit_s = wall_limit_s(*t.lab, t.big ? RunUse::big : RunUse::plain);
    return req;
}

// The CPUs this process may use, as it started (before leave_timing_cpus()).
const std::vector<int>& allowed_cpus()
{
    static const std::vector<int> all = [] {
        std::vector<int> cpus;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
        return cpus;
    }();
    return all;
}

}  // namespace

// A pair of the last CPUs for the timed programs. The time of a call
// includes the host's part (the launches, the wait). On the H100, one
// program ran every call up to 20% slower than another running the same
// code; the core each ran on is one difference between them that hpclab
// can remove. One pair for the whole machine, whatever its GPUs: a timed
// phase has the machine alone (gpu/gpu_turns.h), so two timed programs
// never run at once, in this process or in another hpclab's.
CpuSplit split_cpus(const std::vector<int>& allowed)
{
    CpuSplit split;
    if (allowed.size() < 4) return split;
    split.timed.assign(allowed.end() - 2, allowed.end());
    split.rest.assign(allowed.begin(), allowed.end() - 2);
    return split;
}

namespace {

const CpuSplit& machine_split()
{
    static const CpuSplit split = split_cpus(allowed_cpus());
    return split;
}

}  // namespace

const std::vector<int>& timing_cpus() { return machine_split().timed; }

const std::vector<int>& untimed_cpus() { return machine_split().rest; }

void leave_timing_cpus()
{
    const std::vector<int>& rest = untimed_cpus();
    if (rest.empty()) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : rest) CPU_SET(c, &set);
    (void)sched_setaffinity(0, sizeof set, &set);  // a hint: hpclab runs anyway where it cannot hold
}

double wall_limit_s(const LabInfo& lab, RunUse use, double hang_after_s)
{
    switch (use) {
    case RunUse::big: return lab.big_wall_limit_s;
    case RunUse::sanitizer: {
        const double lab_limit = std::max(60.0, kSanitizerSlowdown * lab.wall_limit_s);
        return hang_after_s > 0 ? std::min(lab_limit, kSanitizerSlowdown * hang_after_s) : lab_limit;
    }
    case RunUse::plain: break;
    }
    return hang_after_s > 0 ? std::min(lab.wall_limit_s, hang_after_s) : lab.wall_limit_s;
}

ProcessResult run_submission(ProcessSpec& ps, std::uint64_t data_bytes, const std::function<void()>& ended)
{
    const auto scope = contain(ps, submission_limits(data_bytes));
    ProcessResult r = run_process(ps);
    if (ended) ended();
    if (scope) r.limit_message = scope->limit_met();
    return r;
}

double ready_wait_s(const LabInfo& lab) { return std::max(30.0, 2 * lab.wall_limit_s); }

RunRequest correctness_run(const RunTarget& target, const CorrectnessOptions& o)
{
    RunRequest req = request_for(target);
    req.trace = RunRequest::Trace::every_call;
    if (o.under_sanitizer) {
        req.trace = RunRequest::Trace::none;
        req.guard_zones = false;
        req.wall_limit_s = wall_limit_s(*target.lab, RunUse::sanitizer, o.hang_after_s);
    } else if (!target.big) {
        req.wall_limit_s = wall_limit_s(*target.lab, RunUse::plain, o.hang_after_s);
    }
    return req;
}

RunRequest timed_run(const RunTarget& target, const TimedOptions& o)
{
    RunRequest req = request_for(target);
    req.ncalls = 1 + static_cast<std::uint32_t>(std::max(1, o.reps));  // the first call warms up
    req.input_sets = std::min(kTimingInputSets, req.ncalls);
    req.parent_clock = all_inputs_filled(*req.spec, req.params);
    req.empty_calls = req.parent_clock && o.measure_harness ? kEmptyCalls : 0;
    req.flush_l2 = true;
    req.trace = RunRequest::Trace::none;  // CUPTI would be in the times
    req.outputs_only = true;
    req.judge_outputs = o.judge_outputs;
    req.measure_copy = o.measure_copy;
    req.cpus = timing_cpus();
    req.cpus_after_calls = untimed_cpus();
    req.reference_budget = kTimedReferenceBudget;
    return req;
}

RunRequest confirming_run(RunRequest req)
{
    req.cpus = timing_cpus();
    return req;
}

std::vector<std::pair<std::string, std::string>> cuda_env(const std::string& gpu_uuid, int max_connections)
{
    std::vector<std::pair<std::string, std::string>> env = {
        {"CUDA_DEVICE_MAX_CONNECTIONS", std::to_string(max_connections)}};
    if (!gpu_uuid.empty()) env.emplace_back("CUDA_VISIBLE_DEVICES", gpu_uuid);
    return env;
}

}  // namespace hpclab
