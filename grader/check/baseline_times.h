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
#include "gpu/gpu_probe.h"
#include "run/task_runner.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace hpclab {

class BaselineTimes {
public:
    std::optional<RunReport> find(const std::string& key) const;
    // Keeps a passed run; the first one kept under a key stays. Ends any
    // claim on the key, passed or not.
    void keep(const std::string& key, const RunReport& run);
    // Checks that start together (a class's first files of a lab, eight at
    // once) would each make the same run: the first to claim a key makes it
    // (true), the others wait for it (wait_for). False when a run is kept
    // or another check holds the claim.
    bool claim(const std::string& key);
    // The claimant will keep no run (its check ended before its timing).
    void give_up(const std::string& key);
    // While another check holds a claim on `key`, waits for its run, at most
    // `within_s`: the run kept, or nothing (none claimed, given up, or late).
    std::optional<RunReport> wait_for(const std::string& key, double within_s) const;

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::map<std::string, RunReport> runs_;
    std::set<std::string> claimed_;
};

// What makes two baseline runs the same: the GPU, the baseline's program
// (its source file), its task, the size and the number of timed calls.
std::string baseline_key(const GpuInfo& gpu, const LabInfo& lab, const TaskInfo& baseline_task, const Params& size,
                         int reps);

}  // namespace hpclab
