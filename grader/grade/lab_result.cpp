#include "grade/lab_result.h"

#include "check/profile.h"

#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace hpclab {

using nlohmann::json;

namespace {

Verdict verdict_of(const json& j, const char* key)
{
    const auto v = verdict_from_name(j.at(key).get<std::string>());
    if (!v) throw std::runtime_error(fmt::format("unknown verdict '{}'", j.at(key).get<std::string>()));
    return *v;
}

std::optional<double> optional_number(const json& j, const char* key)
{
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    return j.at(key).get<double>();
}

}  // namespace

bool LabResult::final() const
{
    return std::all_of(tasks.begin(), tasks.end(), [](const TaskResult& t) { return is_final(t.verdict); });
}

const TaskResult* LabResult::find(const std::string& task) const
{
    for (const TaskResult& t : tasks)
        if (t.task == task) return &t;
    return nullptr;
}

LabResult lab_result_of(const LabCheck& c, const std::string& student, const std::filesystem::path& folder,
                        std::uint64_t content_hash, json record)
{
    const auto shown = [prefix = folder.string() + "/"](const std::string& text) { return replace_all(text, prefix, ""); };
    // A GPU chosen by --gpus by its number too: the report counts each GPU's files.
    const std::string gpu =
        !c.gpu.present ? "" : c.gpu.pinned ? fmt::format("GPU {} ({})", c.gpu.index, c.gpu.name) : c.gpu.name;
    LabResult r {.student = student, .lab = c.lab->id, .content_hash = content_hash, .seed = c.seed,
                 .overall = c.overall, .gpu = gpu, .compile_s = c.compile_s,
                 .run_s = c.run_s, .sanitizer_s = c.sanitizer_s, .timing_s = c.timing_s, .total_s = c.total_s,
                 .record = std::move(record)};
    for (const TaskCheck& t : c.tasks) {
        TaskResult tr {.task = t.task->id, .verdict = t.verdict.verdict, .message = shown(t.verdict.reason.message),
                       .where = t.verdict.reason.where, .hint = t.verdict.reason.hint};
        if (t.timing && t.timing->ratio > 0) {
            tr.speedup = t.timing->ratio;
            tr.threshold = t.timing->threshold;
        }
        if (t.profile) tr.profile = profile_line(*t.profile);
        r.tasks.push_back(std::move(tr));
    }
    return r;
}

json to_json(const LabResult& r)
{
    json tasks = json::array();
    for (const TaskResult& t : r.tasks)
        tasks.push_back({{"task", t.task},
                         {"verdict", verdict_name(t.verdict)},
                         {"message", t.message},
                         {"where", t.where},
                         {"hint", t.hint},
                         {"speedup", t.speedup ? json(*t.speedup) : json(nullptr)},
                         {"threshold", t.threshold ? json(*t.threshold) : json(nullptr)},
                         {"profile", t.profile}});
    return {{"student", r.student},
            {"lab", r.lab},
            {"content_hash", fmt::format("{:016x}", r.content_hash)},
            {"seed", r.seed},
            {"overall", verdict_name(r.overall)},
            {"tasks", tasks},
            {"gpu", r.gpu},
            {"covered", r.covered},
            {"seconds", {{"compile", r.compile_s}, {"runs", r.run_s}, {"sanitizer", r.sanitizer_s},
                         {"timing", r.timing_s}, {"total", r.total_s}}},
            {"record", r.record}};
}

LabResult lab_result_from_json(const json& j)
{
    try {
        LabResult r;
        r.student = j.at("student").get<std::string>();
        r.lab = j.at("lab").get<std::string>();
        r.content_hash = std::stoull(j.at("content_hash").get<std::string>(), nullptr, 16);
        r.seed = j.at("seed").get<std::uint64_t>();
        r.overall = verdict_of(j, "overall");
        for (const json& t : j.at("tasks"))
            r.tasks.push_back({.task = t.at("task").get<std::string>(), .verdict = verdict_of(t, "verdict"),
                               .message = t.value("message", ""), .where = t.value("where", ""),
                               .hint = t.value("hint", ""), .speedup = optional_number(t, "speedup"),
                               .threshold = optional_number(t, "threshold"), .profile = t.value("profile", "")});
        r.gpu = j.value("gpu", "");
        r.covered = j.value("covered", true);
        const json& s = j.at("seconds");
        r.compile_s = s.value("compile", 0.0);
        r.run_s = s.value("runs", 0.0);
        r.sanitizer_s = s.value("sanitizer", 0.0);
        r.timing_s = s.value("timing", 0.0);
        r.total_s = s.value("total", 0.0);
        r.record = j.value("record", json::object());
        return r;
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("not a lab result: ") + e.what());
    } catch (const std::logic_error& e) {
        throw std::runtime_error(std::string("not a lab result: ") + e.what());
    }
}

}  // namespace hpclab
