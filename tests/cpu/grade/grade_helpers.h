// Helpers shared by the grading tests.
#pragma once

#include "intake/class_folder.h"
#include "grade/class_run.h"
#include "gpu/gpu_probe.h"

#include <map>
#include <string>

namespace hpclab::test {

// A GPU for the stand-in checks of grade_jobs (its turns' lock files are
// named by its uuid; its health is the stand-in's to say).
inline GpuInfo stand_in_gpu(int index)
{
    GpuInfo g;
    g.present = true;
    g.pinned = true;
    g.index = index;
    g.name = "stand-in";
    g.uuid = "GPU-stand-in-" + std::to_string(index);
    return g;
}

// A stand-in's check of `job` on `gpu`: every task given `verdict`.
inline LabCheck stand_in_check(const GradeJob& job, const GpuInfo& gpu, Verdict verdict)
{
    LabCheck c {.lab = job.submission->lab, .source = job.submission->file, .gpu = gpu, .seed = job.seed};
    for (const TaskInfo& t : c.lab->tasks) {
        TaskCheck tc {.task = &t};
        tc.verdict = {t.id, verdict, {}, {}};
        c.tasks.push_back(tc);
    }
    c.overall = verdict;
    return c;
}

// A stand-in GPU's health after its `wave`th wave: broken from the wave
// `fail_at_wave` names for it on.
inline GpuHealth stand_in_health(const std::map<int, int>& fail_at_wave, const GpuInfo& gpu, int wave)
{
    const auto f = fail_at_wave.find(gpu.index);
    if (f != fail_at_wave.end() && wave >= f->second) return GpuHealth {false, "a stand-in fault"};
    return GpuHealth {};
}

// Why `path` (relative to the class folder) was left out, or "(not ignored)".
inline std::string why_ignored(const ClassFolder& c, const std::string& path)
{
    for (const Ignored& g : c.ignored)
        if (g.path == path) return g.why;
    return "(not ignored)";
}

}  // namespace hpclab::test
