// One student's graded lab file: what the gradebook, the feedback, the
// Gradescope file and the class report are made of, with the check's whole
// grade record inside for audit. Kept as JSON, one file per student and lab.
#pragma once

#include "check/check.h"
#include "course/verdict.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct TaskResult {
    std::string task;
    Verdict verdict = Verdict::not_run;
    std::string message, where, hint;
    std::optional<double> speedup;    // baseline time / the student's, when it was timed
    std::optional<double> threshold;  // what the speedup had to reach
    std::string profile;              // a slow task's profiler sentence (check/profile.h profile_line)
};

struct LabResult {
    std::string student, lab;
    std::uint64_t content_hash = 0;   // of the file graded (class_folder.h)
    std::uint64_t seed = 0;
    Verdict overall = Verdict::not_run;
    std::vector<TaskResult> tasks;
    std::string gpu;                  // its name ("GPU 1 (name)" when chosen by --gpus), "" when none
    double compile_s = 0, run_s = 0, sanitizer_s = 0, timing_s = 0, total_s = 0;
    nlohmann::json record;            // check/grade_record.h
    // Written the moment its check ends, a result is not yet covered: it
    // counts once the GPU's next health check passes (grade/class_run.h).
    // A result of a run killed before that check is covered (or graded
    // again) by the next run's health check.
    bool covered = true;

    // A result that stands: every task's verdict final (course/verdict.h:
    // not a grader error, not "not run" for want of a GPU). Any other is
    // graded again the next time.
    bool final() const;
    const TaskResult* find(const std::string& task) const;
};

// The messages name the student's files from `folder` (their folder), as
// the student knows them; the record keeps every path whole.
LabResult lab_result_of(const LabCheck& check, const std::string& student, const std::filesystem::path& folder,
                        std::uint64_t content_hash, nlohmann::json record);

nlohmann::json to_json(const LabResult& r);
// Throws std::runtime_error when the JSON is not a result.
LabResult lab_result_from_json(const nlohmann::json& j);

}  // namespace hpclab
