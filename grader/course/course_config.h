// The course config: one JSON file the instructor keeps, which `hpclab grade`
// reads for marks (grade/grading_config.h: seed, points, credit, roster_keys)
// and every command reads for the speed thresholds measured on the class's
// GPU (`hpclab calibrate` writes them):
//
//   {"thresholds": {"reduction": {"atomic": 0.22}}}   a task's min_speedup in place of lab.json's
//
// Its default place is <course root>/course-config.json, beside labs/: it is
// the course's (not one user's, as .hpclab/ is), so `hpclab check`, `hpclab
// grade` without --config, Slurm chunks on other nodes of a shared folder and
// a student kit exported from the course all see the same thresholds.
#pragma once

#include "course/lab_catalog.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>

namespace hpclab {

// A course config that cannot be used: names the file and the entry at fault.
struct CourseConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// <course root>/course-config.json, whether it exists or not.
std::filesystem::path default_course_config(const std::filesystem::path& course_root);

// The file as a JSON object (throws CourseConfigError when it cannot be
// read, is not JSON, or is not an object).
nlohmann::json read_course_config_json(const std::filesystem::path& file);

// The "thresholds" entry: every lab and task known, each task one with a
// threshold in lab.json, each value a positive number.
CourseThresholds parse_course_thresholds(const nlohmann::json& value, const Catalog& catalog,
                                         const std::filesystem::path& file);

// The thresholds of a course config file; none when there is no such file.
CourseThresholds read_course_thresholds(const std::filesystem::path& file, const Catalog& catalog);

// Sets the file's "thresholds" entry (drops it when empty), every other
// entry kept as it is; a new file when there is none. Written whole.
void write_course_thresholds(const std::filesystem::path& file, const CourseThresholds& thresholds);

}  // namespace hpclab
