#include "grade/grading_config.h"

#include "util/keyed_hash.h"

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>

namespace hpclab {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what)
{
    throw CourseConfigError(file.string() + ": " + what);
}

void check_point_key(const std::filesystem::path& file, const Catalog& catalog, const std::string& key)
{
    const auto dot = key.find('.');
    const LabInfo* lab = catalog.find(key.substr(0, dot));
    if (!lab) fail(file, "points: '" + key + "': no lab " + key.substr(0, dot) + " (the labs: " + catalog.ids() + ")");
    if (dot != std::string::npos && !lab->find_task(key.substr(dot + 1)))
        fail(file, "points: '" + key + "': " + lab->unknown_task(key.substr(dot + 1)));
}

}  // namespace

double GradingConfig::points_of(const LabInfo& lab, const TaskInfo& task) const
{
    if (const auto it = points.find(lab.id + "." + task.id); it != points.end()) return it->second;
    if (const auto it = points.find(lab.id); it != points.end()) return it->second;
    return task.points;
}

double GradingConfig::credit_of(Verdict v) const
{
    if (const auto it = credit.find(v); it != credit.end()) return it->second;
    return v == Verdict::pass ? 1.0 : 0.0;
}

GradingConfig read_grading_config(const std::filesystem::path& file, const Catalog& catalog)
{
    GradingConfig c;
    c.file = file;
    const json j = read_course_config_json(file);
    for (const auto& [key, value] : j.items()) {
        if (key == "seed") {
            if (!value.is_number_unsigned()) fail(file, "seed: must be a whole number, 0 or more");
            c.seed = value.get<std::uint64_t>();
        } else if (key == "points") {
            if (!value.is_object()) fail(file, "points: must map \"lab\" or \"lab.task\" to a number");
            for (const auto& [k, v] : value.items()) {
                check_point_key(file, catalog, k);
                if (!v.is_number() || v.get<double>() < 0) fail(file, "points: '" + k + "': must be a number, 0 or more");
                c.points[k] = v.get<double>();
            }
        } else if (key == "credit") {
            if (!value.is_object()) fail(file, "credit: must map a verdict's name to a share between 0 and 1");
            for (const auto& [k, v] : value.items()) {
                const auto verdict = verdict_from_name(k);
                if (!verdict) fail(file, "credit: '" + k + "' is no verdict (hpclab verdicts lists them)");
                if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
                    fail(file, "credit: '" + k + "': must be a number between 0 and 1");
                c.credit[*verdict] = v.get<double>();
            }
        } else if (key == "roster_keys") {
            if (!value.is_array()) fail(file, "roster_keys: must be a list of the roster's column names");
            for (const auto& v : value) {
                if (!v.is_string() || v.get<std::string>().empty()) fail(file, "roster_keys: must be column names");
                c.roster_keys.push_back(v.get<std::string>());
            }
        } else if (key == "thresholds") {
            c.thresholds = parse_course_thresholds(value, catalog, file);
        } else if (key == "leaderboard") {
            if (!value.is_string() || !std::set<std::string> {"pseudonyms", "ids", "off"}.contains(value.get<std::string>()))
                fail(file, "leaderboard: must be \"pseudonyms\", \"ids\" or \"off\"");
            c.leaderboard = value.get<std::string>();
        } else if (key == "lateness") {
            c.lateness = parse_lateness_policy(value, file);
        } else {
            fail(file, "unknown entry '" + key + "' (seed, points, credit, roster_keys, thresholds, leaderboard, lateness)");
        }
    }
    return c;
}

std::filesystem::path grading_config_file(const std::filesystem::path& given, const std::filesystem::path& course_root)
{
    if (!given.empty()) return given;
    const auto course = default_course_config(course_root);
    std::error_code ec;
    return std::filesystem::exists(course, ec) ? course : std::filesystem::path();
}

std::uint64_t submission_seed(std::uint64_t course_seed, const std::string& student, const std::string& lab)
{
    const std::string key = student + '\n' + lab;
    // Kept below 2^53: a seed in JSON and on a command line stays exact everywhere.
    return keyed_hash(std::as_bytes(std::span(key)), course_seed) & ((1ull << 53) - 1);
}

}  // namespace hpclab
