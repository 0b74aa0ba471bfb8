#include "course/course_config.h"

#include "util/atomic_file.h"
#include "util/text_file.h"

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const fs::path& file, const std::string& what)
{
    throw CourseConfigError(file.string() + ": " + what);
}

const TaskInfo& task_with_threshold(const fs::path& file, const Catalog& catalog, const std::string& lab_id,
                                    const std::string& task_id)
{
    const LabInfo* lab = catalog.find(lab_id);
    if (!lab) fail(file, "thresholds: " + catalog.unknown_lab(lab_id));
    const TaskInfo* task = lab->find_task(task_id);
    if (!task) fail(file, "thresholds: " + lab->unknown_task(task_id));
    if (!task->threshold)
        fail(file, "thresholds: " + lab_id + "." + task_id + " has no speed threshold in lab.json: nothing to replace");
    return *task;
}

}  // namespace

fs::path default_course_config(const fs::path& course_root) { return course_root / "course-config.json"; }

json read_course_config_json(const fs::path& file)
{
    const auto text = read_text_file(file);
    if (!text) fail(file, "cannot be read");
    json j;
    try {
        j = json::parse(*text);
    } catch (const json::exception& e) {
        fail(file, std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object()) fail(file, "must be a JSON object");
    return j;
}

CourseThresholds parse_course_thresholds(const json& value, const Catalog& catalog, const fs::path& file)
{
    const char* shape = "thresholds: must map a lab to its tasks' thresholds ({\"vecadd3\": {\"add\": 0.55}})";
    if (!value.is_object()) fail(file, shape);
    CourseThresholds out;
    for (const auto& [lab, tasks] : value.items()) {
        if (!tasks.is_object()) fail(file, shape);
        for (const auto& [task, v] : tasks.items()) {
            task_with_threshold(file, catalog, lab, task);
            // JSON has no infinity or NaN: a positive number is a usable one.
            if (!v.is_number() || v.get<double>() <= 0)
                fail(file, "thresholds: " + lab + "." + task + ": must be a positive number (the speedup to reach)");
            out[lab][task] = v.get<double>();
        }
    }
    return out;
}

CourseThresholds read_course_thresholds(const fs::path& file, const Catalog& catalog)
{
    std::error_code ec;
    if (!fs::exists(file, ec)) return {};
    const json j = read_course_config_json(file);
    return j.contains("thresholds") ? parse_course_thresholds(j.at("thresholds"), catalog, file) : CourseThresholds {};
}

void write_course_thresholds(const fs::path& file, const CourseThresholds& thresholds)
{
    std::error_code ec;
    json j = fs::exists(file, ec) ? read_course_config_json(file) : json::object();
    if (thresholds.empty()) j.erase("thresholds");
    else j["thresholds"] = thresholds;
    write_file_atomically(file, j.dump(2) + "\n");
}

}  // namespace hpclab
