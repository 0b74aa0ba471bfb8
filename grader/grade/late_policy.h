// What lateness costs, as the course config says (course-config.json;
// lateness.h applies it):
//
//   "lateness": {"deadline": "2026-11-20T23:59:00+01:00",  the class's deadline
//                "penalty_per_day": 0.1,      share of the points lost per day late
//                "grace_days": 1,             days late that cost nothing
//                "max_penalty": 0.5,          the most lateness costs (default 1: all)
//                "late_mark_days": 1,         days a late mark with no time counts for (default 1)
//                "students": "extensions.csv"}  per-student deadlines, extensions (beside the config)
//
// The CSV has a "student" column (the id the gradebook names) and any of
// "deadline" (the student's own), "extension_days", "submitted" (when the
// download gives no time) and "days_late" (the instructor's own count).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace hpclab {

struct LatenessPolicy {
    bool given = false;
    std::optional<std::int64_t> deadline;  // UTC seconds
    std::string deadline_text;
    double penalty_per_day = 0, grace_days = 0, max_penalty = 1, late_mark_days = 1;
    std::filesystem::path students;  // the CSV (absolute); empty: none
};

// The "lateness" entry of the course config `file` (throws CourseConfigError).
LatenessPolicy parse_lateness_policy(const nlohmann::json& value, const std::filesystem::path& file);

}  // namespace hpclab
