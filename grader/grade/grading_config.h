// How a course turns verdicts into marks: each task's points (lab.json
// "points", default 1, overridden here), the share of them each verdict
// earns (a pass all, anything else none unless the course says so), which
// verdicts go to a person before any mark counts, and the course's seed.
// Read from the course config the instructor keeps (course/course_config.h:
// <course root>/course-config.json, or `hpclab grade --config`):
//
//   {"seed": 20261123,
//    "points": {"matmul.tiled": 2, "hello": 0.5},   a task, or each task of a lab
//    "credit": {"too_slow": 0.5},                   a verdict's share of the points
//    "roster_keys": ["SIS Login ID"],               the roster's columns that name a student
//    "thresholds": {"matmul": {"tiled": 1.3}},      speed thresholds of this GPU (hpclab calibrate)
//    "leaderboard": "pseudonyms",                   or "ids", or "off" (grade/leaderboard.h)
//    "lateness": {"penalty_per_day": 0.1, ...}}     points off for lateness (lateness.h)
#pragma once

#include "course/course_config.h"
#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "grade/late_policy.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct GradingConfig {
    std::optional<std::uint64_t> seed;
    std::map<std::string, double> points;  // "lab.task" or "lab"
    std::map<Verdict, double> credit;      // besides pass = 1
    std::vector<std::string> roster_keys;
    CourseThresholds thresholds;           // in place of lab.json's (Catalog::use_course_thresholds)
    std::string leaderboard = "pseudonyms";  // how report.md's leaderboard names students: pseudonyms, ids, off
    LatenessPolicy lateness;               // none given: lateness costs nothing
    std::filesystem::path file;            // where it was read from; empty: the defaults

    double points_of(const LabInfo& lab, const TaskInfo& task) const;
    double credit_of(Verdict v) const;
};

// Throws CourseConfigError naming the file and the entry at fault.
GradingConfig read_grading_config(const std::filesystem::path& file, const Catalog& catalog);

// The course config a grading reads: `given` (--config), else the course's
// default one where it exists, else none (empty: the defaults).
std::filesystem::path grading_config_file(const std::filesystem::path& given, const std::filesystem::path& course_root);

// The seed of one student's lab: the course's seed, the student and the lab
// together, so that a regrade (or a Slurm chunk) runs the same inputs.
std::uint64_t submission_seed(std::uint64_t course_seed, const std::string& student, const std::string& lab);

}  // namespace hpclab
