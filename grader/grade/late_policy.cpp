#include "grade/late_policy.h"

#include "course/course_config.h"
#include "intake/timestamp.h"

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const fs::path& file, const std::string& what) { throw CourseConfigError(file.string() + ": " + what); }

double share_between_0_and_1(const json& v, const fs::path& file, const std::string& key)
{
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
        fail(file, "lateness: " + key + ": must be a share of the points, between 0 and 1");
    return v.get<double>();
}

double days_0_or_more(const json& v, const fs::path& file, const std::string& key)
{
    if (!v.is_number() || v.get<double>() < 0) fail(file, "lateness: " + key + ": must be a number of days, 0 or more");
    return v.get<double>();
}

}  // namespace

LatenessPolicy parse_lateness_policy(const json& value, const fs::path& file)
{
    if (!value.is_object()) fail(file, "lateness: must be an object ({\"deadline\": ..., \"penalty_per_day\": 0.1})");
    LatenessPolicy p {.given = true};
    for (const auto& [key, v] : value.items()) {
        if (key == "deadline") {
            p.deadline = v.is_string() ? parse_timestamp(v.get<std::string>()) : std::nullopt;
            if (!p.deadline) fail(file, std::string("lateness: deadline: must be ") + kTimestampForm);
            p.deadline_text = v.get<std::string>();
        } else if (key == "penalty_per_day") p.penalty_per_day = share_between_0_and_1(v, file, key);
        else if (key == "max_penalty") p.max_penalty = share_between_0_and_1(v, file, key);
        else if (key == "grace_days") p.grace_days = days_0_or_more(v, file, key);
        else if (key == "late_mark_days") p.late_mark_days = days_0_or_more(v, file, key);
        else if (key == "students") {
            if (!v.is_string() || v.get<std::string>().empty()) fail(file, "lateness: students: must name a CSV file");
            p.students = fs::absolute(file).parent_path() / v.get<std::string>();
        } else
            fail(file, "lateness: unknown entry '" + key + "' (deadline, penalty_per_day, grace_days, max_penalty, "
                       "late_mark_days, students)");
    }
    return p;
}

}  // namespace hpclab
