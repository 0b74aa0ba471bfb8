// `hpclab calibrate`: the speed thresholds measured on this machine's GPU.
// Each lab's course version (solutions/<lab>/<lab>.cu) is checked `reps`
// times as a student's file is (check_lab, without the sanitizer), and so is
// each slow version of the broken set (tests/broken/<lab>/*.cu whose header
// says "// expect: too_slow"); each task's ratios go through
// decide_threshold (check/threshold_rule.h), and the thresholds that change
// go into the course config (course/course_config.h), which every check and
// grading then reads.
//
// The measuring step is replaceable (MeasureRatios): the CPU tests stand in
// for the GPU with ratios of their own and drive everything else.
#pragma once

#include "check/check.h"
#include "check/threshold_rule.h"
#include "course/lab_catalog.h"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// A file of the broken set that must be too slow, and the task it is slow
// in: its "// task: <id>" line, else the lab's only task with a threshold.
struct SlowVersion {
    std::filesystem::path file;
    std::string task;
    std::string problem;  // why it cannot be used (no task named where the lab has several, or an unknown one)
};

std::vector<SlowVersion> slow_versions(const LabInfo& lab, const std::filesystem::path& course_root);

// One check of `file` in place of the student's (only task `only_task`
// when not empty): each timed task's ratio, by task id. A task left out of
// the answer was not measured.
using MeasureRatios = std::function<std::map<std::string, RatioMeasurement>(
    const LabInfo& lab, const std::filesystem::path& file, const std::string& only_task)>;

struct CalibrationOptions {
    std::vector<const LabInfo*> labs;   // their tasks with a threshold are calibrated
    int reps = 3;                       // checks of each file
    std::filesystem::path config;       // the course config read and written
    MeasureRatios measure;
    std::function<void(const std::string&)> progress;  // a line after each check
};

struct TaskCalibration {
    const LabInfo* lab = nullptr;
    const TaskInfo* task = nullptr;
    std::vector<RatioMeasurement> course, slow;
    ThresholdDecision decision;
    std::optional<double> configured;  // the course config's threshold before, if it had one
};

struct Calibration {
    std::vector<TaskCalibration> tasks;
    CourseThresholds before, after;  // the course config's thresholds
    bool refused() const;            // some task could not be called
};

// Measures and decides; `after` is the course config's thresholds to be: a
// new threshold set, a confirmed one's entry dropped (lab.json's holds), a
// refused one's left as it was. Throws CourseConfigError when the config
// cannot be read.
Calibration calibrate(const Catalog& catalog, const CalibrationOptions& options);

// Writes `after` into the course config when it differs from `before` (every
// other entry of the file kept); whether it wrote.
bool save_calibration(const Calibration& c, const std::filesystem::path& config);

// Per lab and task: lab.json's threshold, every ratio, the decision; then
// why, task by task.
std::string calibration_table(const Calibration& c);

// One task of one check as a measurement: its ratio, unless the check
// failed, the task was not timed, or another process shared the GPU.
RatioMeasurement ratio_of(const TaskCheck& t);

// The real step: check_lab on this GPU, without the sanitizer.
MeasureRatios check_ratios(const Toolchain& tc, const GpuInfo& gpu, const std::filesystem::path& gpu_service_dir);

}  // namespace hpclab
