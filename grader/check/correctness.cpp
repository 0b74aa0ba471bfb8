#include "check/correctness.h"

#include "course/random.h"
#include "run/run_recipe.h"
#include "run/sanitizer.h"
#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <memory>

namespace hpclab {

namespace {

// A seed per task and size, from the check's: --seed replays every run.
std::uint64_t run_seed(std::uint64_t check_seed, const TaskInfo& task, const SizeCase& size)
{
    const std::string key = task.id + format_params(size.params);
    std::uint64_t seed = check_seed;
    for (char c : key) seed = mix64(seed ^ static_cast<unsigned char>(c));
    return seed;
}

RunRequest planned_request(const CorrectnessRuns& runs, const PlannedRun& p, const SanitizerLog* log)
{
    const TaskInfo& task = *runs.tasks[p.task];
    RunRequest req = correctness_run({.lab = runs.lab,
                                      .task = &task,
                                      .program = runs.program,
                                      .params = p.size.params,
                                      .seed = run_seed(runs.seed, task, p.size),
                                      .gpu_memory_bytes = runs.gpu->memory_bytes,
                                      .gpu_minor = runs.gpu->minor,
                                      .gpu_uuid = runs.gpu->visible_as(),
                                      .big = p.size.big,
                                      .facts = runs.facts});
    if (p.sanitizer()) {
        req.trace = RunRequest::Trace::none;
        req.wrapper = sanitizer_command(*runs.sanitizer, p.tool, log->file());
        req.writable.push_back(log->dir());
        req.guard_zones = false;  // the tool must see the buffers' true ends
        req.wall_limit_s = std::max(60.0, runs.lab->wall_limit_s * 4);
    }
    return req;
}

}  // namespace

std::vector<std::optional<RunReport>> run_correctness(const CorrectnessRuns& runs, const std::vector<PlannedRun>& plan)
{
    auto timed_out = std::make_unique<std::atomic<bool>[]>(runs.tasks.size());
    std::vector<std::function<std::optional<RunReport>()>> jobs;
    for (const PlannedRun& p : plan)
        jobs.push_back([&, p]() -> std::optional<RunReport> {
            if (timed_out[p.task]) return std::nullopt;
            const auto log = p.sanitizer() ? std::make_unique<SanitizerLog>() : nullptr;
            RunRequest req = planned_request(runs, p, log.get());
            req.cancel = &timed_out[p.task];
            // A shared turn while the program runs; its judging needs none.
            std::optional<GpuTurns::Turn> turn;
            turn.emplace(runs.turns, false);
            req.on_program_end = [&turn] { turn.reset(); };
            RunReport r = run_task(req);
            turn.reset();  // a run that never started has not said its end
            if (log) r.tool_log = log->read();
            if (r.status == RunStatus::timed_out) timed_out[p.task] = true;
            if (r.status == RunStatus::cancelled) return std::nullopt;
            return r;
        });
    return run_bounded(std::move(jobs), runs.parallel + (runs.sanitizer ? 2 : 0));
}

}  // namespace hpclab
