// The speed baseline's timed runs, kept for reuse. Within one check, the
// tasks timed against the same baseline task at the same size (matmul's and
// rotation's two tasks both against the naive one) share one run. Across the
// checks of a class's grading (hpclab grade), every file of a lab graded on
// one GPU is timed against the same run of the baseline: its program, a CUDA
// context of its own, is made once per lab instead of once per file, and
// every student of the run is measured against the same times.
//
// The baseline is the course's own trusted program: its kernels' speed does
// not depend on the values of its inputs, so a run on the first file's
// inputs stands for every file's.
#pragma once

#include "course/lab_catalog.h"
#include "run/gpu_probe.h"
#include "run/task_runner.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace hpclab {

class BaselineTimes {
public:
    std::optional<RunReport> find(const std::string& key) const;
    // Keeps a passed run; the first one kept under a key stays.
    void keep(const std::string& key, const RunReport& run);

private:
    mutable std::mutex mutex_;
    std::map<std::string, RunReport> runs_;
};

// What makes two baseline runs the same: the GPU, the baseline's program
// (its source file), its task, the size and the number of timed calls.
std::string baseline_key(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& baseline_task, const Params& size,
                         int reps);

}  // namespace hpclab
