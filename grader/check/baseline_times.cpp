#include "check/baseline_times.h"

#include <fmt/format.h>

#include <chrono>

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
    {
        std::lock_guard lock(mutex_);
        if (run.passed()) runs_.emplace(key, run);
        claimed_.erase(key);
    }
    changed_.notify_all();
}

bool BaselineTimes::claim(const std::string& key)
{
    std::lock_guard lock(mutex_);
    return !runs_.count(key) && claimed_.insert(key).second;
}

void BaselineTimes::give_up(const std::string& key)
{
    {
        std::lock_guard lock(mutex_);
        claimed_.erase(key);
    }
    changed_.notify_all();
}

std::optional<RunReport> BaselineTimes::wait_for(const std::string& key, double within_s) const
{
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::duration<double>(within_s), [&] { return !claimed_.count(key); });
    const auto it = runs_.find(key);
    if (it == runs_.end()) return std::nullopt;
    return it->second;
}

std::string baseline_key(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& baseline_task, const Params& size,
                         int reps)
{
    return fmt::format("{}|{}|{}|{}|{}|{}", gpu.uuid, gpu.index, lab.baseline_source.string(), baseline_task.id,
                       format_params(size), reps);
}

}  // namespace hpclab
