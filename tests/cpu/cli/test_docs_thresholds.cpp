// The speed thresholds the pages state are lab.json's: a sentence that says
// a task must run "at least 1.2x the `naive` task" (the words `hpclab list`
// prints) names its lab and task, and that task's threshold and baseline
// are the ones every check reads. A threshold changed in lab.json, or a
// figure copied wrong, fails here. So does a page that calls a task's
// threshold "calibrated" or "not calibrated yet" (hpclab list's words)
// where lab.json says the other.
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <optional>
#include <regex>
#include <string>
#include <vector>

using namespace hpclab;

namespace {

struct StatedThreshold {
    std::string written;
    std::string lab, task;
    double speedup = 0;
    std::string baseline;  // a task id, or "reference" for "the same task"
};

// "matmul's `tiled`, at least 1.2x the `naive` task", "rotation's `tiled`
// needs at least 1.5x the same task".
std::vector<StatedThreshold> stated_thresholds(const std::string& text)
{
    std::vector<StatedThreshold> out;
    const std::regex stated(
        R"(\b`?([a-z_0-9]+)`?'s `([a-z_0-9]+)`[^.;)]{0,40}?\bat least ([0-9]+(?:\.[0-9]+)?)x the (?:`([a-z_0-9]+)` task|same task))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), stated); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        out.push_back({m.str(), m[1].str(), m[2].str(), std::stod(m[3].str()),
                       m[4].matched ? m[4].str() : std::string("reference")});
    }
    return out;
}

// The threshold of the task a page names, or why there is none (into `why`).
const Threshold* named_threshold(const std::string& written, const std::string& lab_id, const std::string& task_id,
                                 std::string& why)
{
    const LabInfo* lab = test::catalog().find(lab_id);
    const TaskInfo* task = lab ? lab->find_task(task_id) : nullptr;
    if (!lab) why = fmt::format("\"{}\": no lab {}", written, lab_id);
    else if (!task) why = fmt::format("\"{}\": {} has no task {}", written, lab_id, task_id);
    else if (!task->threshold) why = fmt::format("\"{}\": {}/{} is not timed", written, lab_id, task_id);
    return task && task->threshold ? &*task->threshold : nullptr;
}

// What is wrong with a stated threshold against the catalog, or nothing.
std::optional<std::string> wrong(const StatedThreshold& s)
{
    std::string why;
    const Threshold* named = named_threshold(s.written, s.lab, s.task, why);
    if (!named) return why;
    const Threshold& t = *named;
    if (t.shipped != s.speedup || t.baseline != s.baseline)
        return fmt::format("\"{}\": lab.json says at least {}x the {}", s.written, t.shipped,
                           t.baseline == "reference" ? "same task" : "`" + t.baseline + "` task");
    return std::nullopt;
}

struct StatedCalibration {
    std::string written;
    std::string lab, task;
    bool calibrated = false;
};

// "`symbols`'s `poly` threshold is calibrated", "matmul's `tiled` threshold is not calibrated yet".
std::vector<StatedCalibration> stated_calibrations(const std::string& text)
{
    std::vector<StatedCalibration> out;
    const std::regex stated(R"(\b`?([a-z_0-9]+)`?'s `([a-z_0-9]+)` threshold is (not calibrated|calibrated))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), stated); it != std::sregex_iterator(); ++it)
        out.push_back({it->str(), (*it)[1].str(), (*it)[2].str(), (*it)[3].str() == "calibrated"});
    return out;
}

std::optional<std::string> wrong(const StatedCalibration& s)
{
    std::string why;
    const Threshold* t = named_threshold(s.written, s.lab, s.task, why);
    if (!t) return why;
    if (t->calibrated != s.calibrated)
        return fmt::format("\"{}\": lab.json says {}", s.written, t->calibrated ? "calibrated" : "not calibrated yet");
    return std::nullopt;
}

// Every statement `scan` finds in the pages, each checked against the
// catalog (a failure per wrong one); how many it found.
template <class Scan> int check_every_page(Scan scan)
{
    int seen = 0;
    for (const auto& page : test::doc_pages())
        for (const auto& s : scan(read_text_file(page).value_or(""))) {
            ++seen;
            if (const auto why = wrong(s)) FAIL_CHECK(page.filename().string() << ": " << *why);
        }
    return seen;
}

}  // namespace

TEST_CASE("docs: a task's speed threshold a page states is its lab.json's")
{
    CHECK(check_every_page(stated_thresholds) >= 1);  // instructors.md's calibration section names matmul's
}

TEST_CASE("docs: a task's threshold a page calls calibrated is calibrated in its lab.json")
{
    CHECK(check_every_page(stated_calibrations) >= 1);  // symbols.md says its poly task's
    // Planted: the scan reads both states, and fails a state lab.json does not give.
    const auto right = stated_calibrations("`symbols`'s `poly` threshold is calibrated from checks");
    REQUIRE(right.size() == 1);
    CHECK(right.front().lab == "symbols");
    CHECK(right.front().task == "poly");
    CHECK_FALSE(wrong(right.front()));
    const auto planted = stated_calibrations("matmul's `tiled` threshold is not calibrated yet");
    REQUIRE(planted.size() == 1);
    CHECK_FALSE(planted.front().calibrated);
    CHECK(wrong(planted.front()));
    CHECK(wrong(stated_calibrations("matmul's `blocked` threshold is calibrated").front()));
}

TEST_CASE("docs: the threshold scan reads a stated threshold and fails a planted wrong one")
{
    const auto right = stated_thresholds("(matmul's `tiled`, at least 1.2x the `naive` task of `bench/matmul/tuned.cu`)");
    REQUIRE(right.size() == 1);
    CHECK(right.front().lab == "matmul");
    CHECK(right.front().task == "tiled");
    CHECK(right.front().baseline == "naive");
    CHECK_FALSE(wrong(right.front()));
    const auto figure = stated_thresholds("matmul's `tiled`, at least 1.3x the `naive` task");
    REQUIRE(figure.size() == 1);
    CHECK(wrong(figure.front()));
    const auto base = stated_thresholds("`rotation`'s `tiled` must run at least 1.5x the same task");
    REQUIRE(base.size() == 1);
    CHECK(base.front().baseline == "reference");
    CHECK(wrong(base.front()));  // lab.json: 1.5x the `naive` task
    CHECK(wrong(stated_thresholds("matmul's `blocked`, at least 1.2x the `naive` task").front()));
}
