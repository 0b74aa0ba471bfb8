#include "check/baseline_times.h"

#include <fmt/format.h>

namespace hpclab {

std::optional<RunReport> BaselineTimes::find(const std::string& key) const
{
    std::lock_guard lock(mutex_);
    const auto it = runs_.find(key);
    if (it == runs_.end()) return std::nullopt;
    return it->second;
}

void BaselineTimes::keep(const std::string& key, const RunReport& run)
{
    if (!run.passed()) return;
    std::lock_guard lock(mutex_);
    runs_.emplace(key, run);
}

std::string baseline_key(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& baseline_task, const Params& size,
                         int reps)
{
    return fmt::format("{}|{}|{}|{}|{}|{}", gpu.uuid, gpu.index, lab.baseline_source.string(), baseline_task.id,
                       format_params(size), reps);
}

}  // namespace hpclab
