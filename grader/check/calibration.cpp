#include "check/calibration.h"

#include "course/course_config.h"
#include "util/shown_path.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <span>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// The comment lines a file of the broken set starts with (its header).
std::vector<std::string> header_lines(const fs::path& file)
{
    std::vector<std::string> out;
    const std::string text = read_text_file(file).value_or("");
    for (std::size_t at = 0; at < text.size() && text.compare(at, 2, "//") == 0;) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        out.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

// "// key: value" -> value, when the header has that line.
std::optional<std::string> header_value(const std::vector<std::string>& header, const std::string& key)
{
    const std::string prefix = "// " + key + ":";
    for (const std::string& line : header)
        if (line.rfind(prefix, 0) == 0) return trimmed_lower(line.substr(prefix.size()));
    return std::nullopt;
}

std::vector<std::string> tasks_with_threshold(const LabInfo& lab)
{
    std::vector<std::string> out;
    for (const TaskInfo& t : lab.tasks)
        if (t.threshold) out.push_back(t.id);
    return out;
}

// The task a slow version is slow in, or why it cannot be told.
void find_slow_task(const LabInfo& lab, const std::vector<std::string>& header, SlowVersion& s)
{
    const std::vector<std::string> timed = tasks_with_threshold(lab);
    if (const auto named = header_value(header, "task")) {
        const TaskInfo* t = lab.find_task(*named);
        if (!t || !t->threshold)
            s.problem = fmt::format("its \"// task: {}\" line names no task of {} with a threshold ({})", *named,
                                    lab.id, fmt::join(timed, ", "));
        else s.task = *named;
    } else if (timed.size() == 1) {
        s.task = timed.front();
    } else {
        s.problem = fmt::format("lab {} has several timed tasks ({}): say which one this file is slow in with a "
                                "line \"// task: <id>\" in its header",
                                lab.id, fmt::join(timed, ", "));
    }
}

std::optional<double> configured(const CourseThresholds& c, const std::string& lab, const std::string& task)
{
    const auto l = c.find(lab);
    if (l == c.end()) return std::nullopt;
    const auto t = l->second.find(task);
    return t == l->second.end() ? std::nullopt : std::optional<double>(t->second);
}

std::string ratio_text(const RatioMeasurement& m) { return m.usable() ? fmt::format("{:.2f}", *m.ratio) : "failed"; }

// `o.reps` checks of `file`, each task's ratio into its row's list `into`.
void measure_file(const fs::path& root, const LabInfo& lab, const fs::path& file, const std::string& only_task,
                  const CalibrationOptions& o, std::span<TaskCalibration> rows,
                  std::vector<RatioMeasurement> TaskCalibration::*into)
{
    for (int k = 1; k <= o.reps; ++k) {
        const auto got = o.measure(lab, file, only_task);
        const std::string source = fmt::format("{}, check {} of {}", shown_path(file, root), k, o.reps);
        std::string line;
        for (TaskCalibration& r : rows) {
            if (!only_task.empty() && r.task->id != only_task) continue;
            const auto it = got.find(r.task->id);
            RatioMeasurement m = it != got.end() ? it->second : RatioMeasurement {.problem = "not measured"};
            m.source = source;
            line += fmt::format(" {} {}", r.task->id, ratio_text(m));
            (r.*into).push_back(std::move(m));
        }
        if (o.progress) o.progress(fmt::format("{}: {}:{}", lab.id, source, line));
    }
}

void calibrate_lab(const fs::path& root, const LabInfo& lab, const CalibrationOptions& o, Calibration& c)
{
    const std::size_t first = c.tasks.size();
    for (const TaskInfo& t : lab.tasks)
        if (t.threshold)
            c.tasks.push_back({.lab = &lab, .task = &t, .configured = configured(c.before, lab.id, t.id)});
    const std::span<TaskCalibration> rows(c.tasks.begin() + static_cast<std::ptrdiff_t>(first), c.tasks.end());
    if (rows.empty()) return;
    measure_file(root, lab, lab.solution_source(), "", o, rows, &TaskCalibration::course);
    for (const SlowVersion& s : slow_versions(lab, root)) {
        if (s.problem.empty()) {
            measure_file(root, lab, s.file, s.task, o, rows, &TaskCalibration::slow);
            continue;
        }
        for (TaskCalibration& r : rows)  // which task it is for is unknown: it spoils them all
            r.slow.push_back({.source = shown_path(s.file, root), .problem = s.problem});
    }
    // A task that must be faster than another task of the baseline (matmul's
    // tiled, at least 1.2x its naive one) must beat that plainer kernel: a
    // student's kernel no faster than it runs 1.0x by construction, a slow
    // version every threshold must stay clear of, whether or not the broken
    // set has one.
    for (TaskCalibration& r : rows)
        if (r.task->threshold->baseline != "reference" && r.task->threshold->shipped > 1)
            r.slow.push_back({.source = fmt::format("the {} task of {} itself (1.0x by construction)",
                                                    r.task->threshold->baseline,
                                                    shown_path(lab.baseline_source, root)),
                              .ratio = 1.0});
    for (TaskCalibration& r : rows) r.decision = decide_threshold(r.task->threshold->shipped, r.course, r.slow);
}

// The course config's thresholds after the decisions.
CourseThresholds thresholds_after(CourseThresholds t, const std::vector<TaskCalibration>& tasks)
{
    for (const TaskCalibration& r : tasks) {
        if (r.decision.kind == ThresholdDecision::Kind::changed) t[r.lab->id][r.task->id] = r.decision.min_speedup;
        if (r.decision.kind != ThresholdDecision::Kind::confirmed || !t.count(r.lab->id)) continue;
        t[r.lab->id].erase(r.task->id);
        if (t[r.lab->id].empty()) t.erase(r.lab->id);
    }
    return t;
}

std::string ratios_text(const std::vector<RatioMeasurement>& ms)
{
    if (ms.empty()) return "-";
    std::vector<std::string> parts;
    for (const RatioMeasurement& m : ms) parts.push_back(ratio_text(m));
    return fmt::format("{}", fmt::join(parts, " "));
}

std::string decision_text(const ThresholdDecision& d)
{
    switch (d.kind) {
    case ThresholdDecision::Kind::confirmed: return "confirmed";
    case ThresholdDecision::Kind::changed: return fmt::format("new {:g}", d.min_speedup);
    case ThresholdDecision::Kind::refused: break;
    }
    return "refused";
}

// What became of the course config's own entry for the task, if it had one.
std::string config_entry_fate(const TaskCalibration& r)
{
    if (!r.configured) return "";
    switch (r.decision.kind) {
    case ThresholdDecision::Kind::confirmed: return fmt::format(" (the course config's {:g} is dropped)", *r.configured);
    case ThresholdDecision::Kind::changed: return fmt::format(" (in place of the course config's {:g})", *r.configured);
    case ThresholdDecision::Kind::refused: break;
    }
    return fmt::format(" (the course config's {:g} stays)", *r.configured);
}

}  // namespace

std::vector<SlowVersion> slow_versions(const LabInfo& lab, const fs::path& course_root)
{
    std::vector<SlowVersion> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(course_root / "tests" / "broken" / lab.id, ec)) {
        if (entry.path().extension() != ".cu") continue;
        const std::vector<std::string> header = header_lines(entry.path());
        if (header_value(header, "expect") != "too_slow") continue;
        SlowVersion s {.file = entry.path()};
        find_slow_task(lab, header, s);
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const SlowVersion& a, const SlowVersion& b) { return a.file < b.file; });
    return out;
}

bool Calibration::refused() const
{
    return std::any_of(tasks.begin(), tasks.end(),
                       [](const TaskCalibration& t) { return t.decision.kind == ThresholdDecision::Kind::refused; });
}

Calibration calibrate(const Catalog& catalog, const CalibrationOptions& o)
{
    Calibration c;
    c.before = read_course_thresholds(o.config, catalog);
    for (const LabInfo* lab : o.labs) calibrate_lab(catalog.root(), *lab, o, c);
    c.after = thresholds_after(c.before, c.tasks);
    return c;
}

bool save_calibration(const Calibration& c, const fs::path& config)
{
    if (c.after == c.before) return false;
    write_course_thresholds(config, c.after);
    return true;
}

std::string calibration_table(const Calibration& c)
{
    std::vector<std::array<std::string, 6>> rows = {
        {"lab", "task", "lab.json", "course's ratios", "slow versions' ratios", "decision"}};
    for (const TaskCalibration& r : c.tasks)
        rows.push_back({r.lab->id, r.task->id, fmt::format("{:g}", r.task->threshold->shipped), ratios_text(r.course),
                        ratios_text(r.slow), decision_text(r.decision)});
    std::array<std::size_t, 6> width {};
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) line += fmt::format("{:<{}}  ", row[i], width[i]);
        out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    }
    out += "\n";
    for (const TaskCalibration& r : c.tasks)
        out += fmt::format("{}.{}: {}: {}{}\n", r.lab->id, r.task->id, decision_text(r.decision), r.decision.why,
                           config_entry_fate(r));
    return out;
}

RatioMeasurement ratio_of(const TaskCheck& t)
{
    const TaskVerdict& v = t.verdict;
    const std::string verdict = fmt::format("{} ({})", verdict_name(v.verdict), first_lines(v.reason.message, 1));
    if (!t.timing) return {.problem = "not timed: " + verdict};
    RatioMeasurement m {.ratio = t.timing->ratio};
    if (t.timing->unreliable)
        m.problem = "inconclusive: " + t.timing->unreliable_why + " (calibrate on a GPU nothing else uses)";
    else if (v.verdict == Verdict::suspicious)
        m.problem = "suspicious: faster than the GPU's copy bandwidth allows for its bytes";
    else if (is_failure(v.verdict) && v.verdict != Verdict::too_slow && v.verdict != Verdict::inconclusive)
        m.problem = "the check failed: " + verdict;
    return m;
}

MeasureRatios check_ratios(const Toolchain& tc, const GpuInfo& gpu, const fs::path& gpu_service_dir)
{
    return [&tc, &gpu, gpu_service_dir](const LabInfo& lab, const fs::path& file, const std::string& only_task) {
        std::map<std::string, RatioMeasurement> out;
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {  // a student kit has no solutions/
            for (const std::string& t : tasks_with_threshold(lab)) out[t].problem = "no such file";
            return out;
        }
        const LabCheck c = check_lab(
            tc, gpu, lab,
            {.source = file, .only_task = only_task, .sanitizer = false, .gpu_service_dir = gpu_service_dir});
        for (const TaskCheck& t : c.tasks)
            if (t.task->threshold) out[t.task->id] = ratio_of(t);
        return out;
    };
}

}  // namespace hpclab
