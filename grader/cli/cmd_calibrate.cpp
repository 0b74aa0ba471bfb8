// hpclab calibrate: the speed thresholds on this machine's GPU (check/calibration.h).
#include "commands.h"

#include "check/calibration.h"
#include "course/course_config.h"
#include "process/sandbox.h"
#include "student/state_dir.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

bool has_threshold(const LabInfo& lab)
{
    return std::any_of(lab.tasks.begin(), lab.tasks.end(), [](const TaskInfo& t) { return bool(t.threshold); });
}

// The labs named (each must have a speed threshold), or every lab that has one.
std::vector<const LabInfo*> labs_to_calibrate(const Context& ctx, const std::vector<std::string>& ids)
{
    std::vector<const LabInfo*> out, timed;
    for (const LabInfo& lab : ctx.catalog().labs())
        if (has_threshold(lab)) timed.push_back(&lab);
    if (ids.empty()) return timed;
    for (const std::string& id : ids) {
        const LabInfo& lab = ctx.lab(id);
        if (!has_threshold(lab)) {
            std::vector<std::string> names;
            for (const LabInfo* l : timed) names.push_back(l->id);
            throw UsageError(fmt::format("lab {} has no speed threshold: nothing to calibrate (the labs with one: {})",
                                         id, fmt::join(names, ", ")));
        }
        out.push_back(&lab);
    }
    return out;
}

}  // namespace

int cmd_calibrate(Context& ctx, const CalibrateArgs& a)
{
    const std::vector<const LabInfo*> labs = labs_to_calibrate(ctx, a.labs);
    const fs::path config = a.config.empty() ? default_course_config(ctx.catalog().root()) : fs::path(a.config);
    try {  // a config it could not write back is refused before anything runs
        (void)read_course_thresholds(config, ctx.catalog());
    } catch (const CourseConfigError& e) {
        throw UsageError(e.what());
    }
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab calibrate: nothing measured: cannot build: {}\n", ctx.toolchain().unavailable);
        return kSkipped;
    }
    const GpuInfo& gpu = ctx.gpu();
    if (!gpu.present) {
        fmt::print(stderr, "hpclab calibrate: nothing measured: no GPU here ({}). The thresholds are measured on "
                           "this machine's GPU: run it on the machine that checks and grades.\n", gpu.why_not);
        return kSkipped;
    }
    fmt::print("Calibrating the speed thresholds on {}: each lab's course version and slow versions checked {} "
               "times (no sanitizer); the GPU should have nothing else to do meanwhile.\n", gpu.name, a.reps);
    if (const auto why = sandbox_unavailable()) fmt::print("No sandbox ({}): checked as on your own machine.\n", *why);
    std::fflush(stdout);
    const CalibrationOptions o {
        .labs = labs, .reps = a.reps, .config = config,
        .measure = check_ratios(ctx.toolchain(), gpu, state_dir(ctx.catalog().root()) / "gpus"),
        .progress = [](const std::string& line) { fmt::print("  {}\n", line); std::fflush(stdout); }};
    const Calibration c = calibrate(ctx.catalog(), o);
    fmt::print("\n{}\n", calibration_table(c));
    bool written = false;
    try {
        written = save_calibration(c, config);
    } catch (const std::runtime_error& e) {
        throw SetupError(e.what());
    }
    const bool course_default = config == default_course_config(ctx.catalog().root());
    fmt::print("Course config {}: {}{}\n", written ? "written" : "unchanged", config.string(),
               course_default ? " (hpclab check and hpclab grade read it)"
                              : " (hpclab grade --config reads it; hpclab check reads the course's course-config.json)");
    if (c.refused())
        fmt::print("Some thresholds could not be called here (refused above): the course config keeps what it had "
                   "for them.\n");
    return c.refused() ? kFail : kPass;
}

}  // namespace hpclab::cli
