// hpclab calibrate without a GPU: the rule that keeps, moves or refuses a
// threshold; the whole calibration driven by stand-in ratios (what the real
// step would have measured), into a course config; and a check that times a
// task against the threshold the course config sets.
#include "check/calibration.h"
#include "check/timing.h"
#include "course/course_config.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::contains;
using hpclab::test::lab_of;
using hpclab::test::TempDir;
namespace fs = std::filesystem;
using Kind = ThresholdDecision::Kind;

namespace {

std::vector<RatioMeasurement> ratios(std::vector<double> rs)
{
    std::vector<RatioMeasurement> out;
    for (double r : rs) out.push_back({.source = "a check", .ratio = r});
    return out;
}

// Stand-in ratios for the real step: by file name (the solution, a slow
// version), each task's ratio; a file not listed answers nothing.
struct StandIn {
    std::map<std::string, std::map<std::string, RatioMeasurement>> by_file;
    std::vector<std::string> calls;

    MeasureRatios step()
    {
        return [this](const LabInfo& lab, const fs::path& file, const std::string& only_task) {
            calls.push_back(lab.id + " " + file.filename().string() + (only_task.empty() ? "" : " --task " + only_task));
            const auto it = by_file.find(file.filename().string());
            return it == by_file.end() ? std::map<std::string, RatioMeasurement> {} : it->second;
        };
    }
};

RatioMeasurement ratio(double r) { return {.ratio = r}; }

const TaskCalibration& row(const Calibration& c, const std::string& lab, const std::string& task)
{
    for (const TaskCalibration& r : c.tasks)
        if (r.lab->id == lab && r.task->id == task) return r;
    FAIL("no row " << lab << "." << task);
    throw;
}

}  // namespace

TEST_CASE("calibrate rule: confirmed where the course's versions and the slow ones stay 1.2x clear")
{
    ThresholdDecision d = decide_threshold(0.6, ratios({0.86, 0.87, 0.85}), ratios({0.01, 0.012}));
    CHECK(d.kind == Kind::confirmed);
    CHECK(d.min_speedup == 0.6);
    d = decide_threshold(0.6, ratios({0.73}), {});  // just past 1.2x, no slow version
    CHECK(d.kind == Kind::confirmed);
    d = decide_threshold(0.25, ratios({0.37, 0.46}), ratios({0.13}));
    CHECK(d.kind == Kind::confirmed);
}

TEST_CASE("calibrate rule: a new threshold between them where lab.json's does not hold here")
{
    // The course's version is slower here: 0.5 is too close under 0.6.
    ThresholdDecision d = decide_threshold(0.6, ratios({0.55, 0.5, 0.52}), ratios({0.01}));
    CHECK(d.kind == Kind::changed);
    CHECK(d.min_speedup == doctest::Approx(std::sqrt(0.5 * 0.01)).epsilon(0.05));
    CHECK(contains(d.why, "not 1.2x below the course's lowest ratio 0.5"));
    // The slow version is faster here: within 1.2x of 0.25.
    d = decide_threshold(0.25, ratios({0.4, 0.45}), ratios({0.22, 0.2}));
    CHECK(d.kind == Kind::changed);
    CHECK(d.min_speedup >= 0.22 * 1.2);
    CHECK(d.min_speedup * 1.2 <= 0.4);
    CHECK(contains(d.why, "not 1.2x above the slow versions' highest ratio 0.22"));
    // No slow version: the course's lowest / 1.5, rounded for people.
    d = decide_threshold(0.8, ratios({0.75, 0.8}), {});
    CHECK(d.kind == Kind::changed);
    CHECK(d.min_speedup == 0.5);
    // Rounding never eats the margin: 1.2 and 1.21 would sit too close to
    // 1.01, so the mean keeps a third digit.
    d = decide_threshold(1, ratios({1.46}), ratios({1.01}));
    CHECK(d.kind == Kind::changed);
    CHECK(d.min_speedup == 1.214);
}

TEST_CASE("calibrate rule: refused when too thin to call, or when a measurement is missing or failed")
{
    ThresholdDecision d = decide_threshold(0.6, ratios({0.5, 0.55}), ratios({0.4}));  // 1.25x apart
    CHECK(d.kind == Kind::refused);
    CHECK(contains(d.why, "too thin to call"));
    CHECK(contains(d.why, "1.25x"));
    d = decide_threshold(0.6, ratios({0.5}), ratios({0.6}));  // a slow version as fast as the course's
    CHECK(d.kind == Kind::refused);

    d = decide_threshold(0.6, {}, ratios({0.01}));
    CHECK(d.kind == Kind::refused);
    CHECK(contains(d.why, "no measurement of the course's version"));
    std::vector<RatioMeasurement> course = ratios({0.86, 0.87});
    course.push_back({.source = "solutions/vecadd3/vecadd3.cu, check 3 of 3", .problem = "not timed: wrong_answer"});
    d = decide_threshold(0.6, course, ratios({0.01}));
    CHECK(d.kind == Kind::refused);
    CHECK(contains(d.why, "check 3 of 3: not timed: wrong_answer"));
    std::vector<RatioMeasurement> slow = ratios({0.01});
    slow.push_back({.source = "slow.cu", .ratio = 0.01, .problem = "inconclusive: another process used the GPU"});
    d = decide_threshold(0.6, ratios({0.86}), slow);
    CHECK(d.kind == Kind::refused);
    CHECK(contains(d.why, "slow.cu: inconclusive"));
    CHECK(decide_threshold(0.6, {{.source = "x"}}, {}).kind == Kind::refused);  // no ratio, no reason given
}

TEST_CASE("calibrate: the slow versions are the broken set's too_slow files, each with its task")
{
    const std::vector<SlowVersion> v = slow_versions(lab_of("vecadd3"), test::course_root());
    REQUIRE(v.size() == 1);
    CHECK(v[0].file.filename() == "one_thread_per_block.cu");
    CHECK(v[0].task == "add");  // the lab's only timed task
    const std::vector<SlowVersion> r = slow_versions(lab_of("reduction"), test::course_root());
    REQUIRE(r.size() == 1);
    CHECK(r[0].task == "atomic");  // its "// task: atomic" line
    CHECK(r[0].problem.empty());
    CHECK(slow_versions(lab_of("matmul"), test::course_root()).empty());

    // A lab with several timed tasks needs the line; an unknown task is named.
    const TempDir d;
    d.write("tests/broken/reduction/a.cu", "// expect: too_slow\n// why: slow\n__global__ void k() {}\n");
    d.write("tests/broken/reduction/b.cu", "// expect: too_slow\n// why: slow\n// task: atomc\n");
    d.write("tests/broken/reduction/c.cu", "// expect: wrong_answer\n// why: wrong\n");
    const std::vector<SlowVersion> bad = slow_versions(lab_of("reduction"), d.path());
    REQUIRE(bad.size() == 2);
    CHECK(contains(bad[0].problem, "// task: <id>"));
    CHECK(contains(bad[1].problem, "names no task of reduction with a threshold"));
}

TEST_CASE("calibrate: stand-in ratios through the whole calibration into the course config")
{
    const TempDir d;
    const fs::path config = d.write("course-config.json", R"({"seed": 5, "thresholds": {"vecadd3": {"add": 0.5},
        "reduction": {"tree": 0.7}, "matmul": {"tiled": 1.3}}})");
    StandIn s;
    s.by_file["vecadd3.cu"] = {{"add", ratio(0.86)}};                                  // lab.json's 0.6 holds
    s.by_file["one_thread_per_block.cu"] = {{"add", ratio(0.01)}};
    s.by_file["reduction.cu"] = {{"tree", ratio(1.0)}, {"atomic", ratio(0.22)}};       // atomic: lab.json's 0.2 fails here
    s.by_file["atomic_every_thread.cu"] = {{"atomic", ratio(0.12)}};
    s.by_file["matmul.cu"] = {{"naive", ratio(1.0)}};                                  // tiled never measured
    std::vector<std::string> progress;
    const CalibrationOptions o {.labs = {&lab_of("vecadd3"), &lab_of("reduction"), &lab_of("matmul")},
                                .reps = 2,
                                .config = config,
                                .measure = s.step(),
                                .progress = [&](const std::string& line) { progress.push_back(line); }};
    const Calibration c = calibrate(catalog(), o);

    // Each file checked `reps` times; a slow version only for its task.
    CHECK(std::count(s.calls.begin(), s.calls.end(), "reduction atomic_every_thread.cu --task atomic") == 2);
    CHECK(std::count(s.calls.begin(), s.calls.end(), "vecadd3 vecadd3.cu") == 2);
    CHECK(progress.size() == s.calls.size());
    CHECK(row(c, "vecadd3", "add").decision.kind == Kind::confirmed);
    CHECK(row(c, "reduction", "tree").decision.kind == Kind::confirmed);
    const TaskCalibration& atomic = row(c, "reduction", "atomic");
    CHECK(atomic.decision.kind == Kind::changed);
    CHECK(atomic.course.size() == 2);
    CHECK(atomic.slow.size() == 2);
    CHECK(row(c, "matmul", "naive").decision.kind == Kind::confirmed);
    const TaskCalibration& tiled = row(c, "matmul", "tiled");
    CHECK(tiled.decision.kind == Kind::refused);
    CHECK(contains(tiled.decision.why, "solutions/matmul/matmul.cu, check 1 of 2: not measured"));
    CHECK(c.refused());

    // The table: lab.json's threshold, every ratio, the decision, then why.
    const std::string table = calibration_table(c);
    CAPTURE(table);
    CHECK(contains(table, "lab.json"));
    CHECK(contains(table, "0.86 0.86"));
    CHECK(contains(table, "0.12 0.12"));
    CHECK(contains(table, "new " + fmt::format("{:g}", atomic.decision.min_speedup)));
    CHECK(contains(table, "failed failed"));
    CHECK(contains(table, "vecadd3.add: confirmed: "));
    CHECK(contains(table, "(the course config's 0.5 is dropped)"));
    CHECK(contains(table, "matmul.tiled: refused: "));
    CHECK(contains(table, "(the course config's 1.3 stays)"));

    // Written: the new one set, the confirmed ones dropped, the refused one kept, the seed untouched.
    CHECK(save_calibration(c, config));
    const CourseThresholds written = read_course_thresholds(config, catalog());
    CHECK(written == CourseThresholds {{"matmul", {{"tiled", 1.3}}}, {"reduction", {{"atomic", atomic.decision.min_speedup}}}});
    CHECK(contains(read_text_file(config).value(), "\"seed\": 5"));
    CHECK_FALSE(save_calibration(calibrate(catalog(), o), config));  // the same again: nothing to write
}

TEST_CASE("calibrate: a check's task as a measurement: its ratio, or why it has none")
{
    TaskCheck t;
    t.verdict.verdict = Verdict::wrong_answer;
    t.verdict.reason.message = "c[3]: expected 1, got 2\nmore";
    RatioMeasurement m = ratio_of(t);
    CHECK_FALSE(m.usable());
    CHECK(m.problem == "not timed: wrong_answer (c[3]: expected 1, got 2)");

    t.timing = Timing {.ratio = 0.3};
    t.verdict.verdict = Verdict::too_slow;  // against the shipped threshold: still a ratio
    CHECK(ratio_of(t).usable());
    CHECK(*ratio_of(t).ratio == 0.3);
    t.verdict.verdict = Verdict::inconclusive;
    CHECK(ratio_of(t).usable());
    t.timing->unreliable = true;  // another process on the GPU: the number means nothing
    t.timing->unreliable_why = "another process was using a GPU of this machine: sleep (pid 7)";
    CHECK(ratio_of(t).problem ==
          "inconclusive: another process was using a GPU of this machine: sleep (pid 7) (calibrate on a GPU nothing "
          "else uses)");
    t.timing->unreliable = false;
    t.verdict.verdict = Verdict::grader_error;  // the GPU was unhealthy after the runs
    CHECK(contains(ratio_of(t).problem, "the check failed: grader_error"));
}

TEST_CASE("check: a task is timed against the course config's threshold, not lab.json's, where it sets one")
{
    Catalog c = catalog();
    const LabInfo& lab = *c.find("vecadd3");
    const TaskInfo& add = *lab.find_task("add");
    Timing t = timing_frame(lab, add);
    CHECK(t.threshold == add.threshold->shipped);
    CHECK(t.threshold_set_by.empty());
    t.ratio_low = t.threshold * 1.1, t.ratio = t.threshold * 1.15, t.ratio_high = t.threshold * 1.2;
    t.student_ms = {1.0};
    CHECK(finding_of_timing(t).kind == Verdict::pass);

    // Calibrated on a faster GPU: the same ratio is too slow here.
    c.use_course_thresholds({{"vecadd3", {{"add", add.threshold->shipped * 1.5}}}}, "/course/course-config.json");
    Timing here = timing_frame(lab, add);
    CHECK(here.threshold == doctest::Approx(add.threshold->shipped * 1.5));
    CHECK(here.threshold_set_by == "/course/course-config.json");
    here.ratio_low = t.ratio_low, here.ratio = t.ratio, here.ratio_high = t.ratio_high;
    here.student_ms = {1.0};
    CHECK(finding_of_timing(here).kind == Verdict::too_slow);
}

TEST_CASE("calibrate: a task timed against a plainer task of the baseline must stay clear of 1.0x, that task itself")
{
    // matmul's tiled task is timed against the naive task of bench/matmul/tuned.cu: a kernel no
    // faster than naive runs 1.0x, so a threshold near or below 1 would pass it. Measured on an
    // H100 (2026-11-25): the course's tiled kernel 1.39..1.46x.
    const auto tiled_at = [](double r) {
        StandIn s;
        s.by_file["matmul.cu"] = {{"naive", ratio(1.0)}, {"tiled", ratio(r)}};
        const CalibrationOptions o {.labs = {&lab_of("matmul")}, .reps = 1, .measure = s.step()};
        return calibrate(catalog(), o);
    };
    const Calibration thin = tiled_at(1.39);
    const TaskCalibration& tiled = row(thin, "matmul", "tiled");
    CAPTURE(tiled.decision.why);
    CHECK(tiled.decision.kind == Kind::refused);  // not a new threshold of 1.39 / 1.5 = 0.93
    CHECK(contains(tiled.decision.why, "too thin to call"));
    REQUIRE(tiled.slow.size() == 1);
    CHECK(contains(tiled.slow[0].source, "the naive task of bench/matmul/tuned.cu itself"));
    CHECK(row(thin, "matmul", "naive").slow.empty());  // timed against the same task: no such bound

    const Calibration clear = tiled_at(1.5);
    CHECK(row(clear, "matmul", "tiled").decision.kind == Kind::confirmed);  // 1.5 >= 1.2 x 1.2, and 1.2 >= 1.2 x 1.0
}

TEST_CASE("timing on the parent's clock: one harness cost, the lesser of the two programs', comes out of both")
{
    // A round of a class's grading on the H100 (reduction, task atomic, a
    // correct file): the baseline's empty calls measured at a busy moment.
    auto run = [](double harness_ms, std::vector<double> parent_ms) {
        RunReport r;
        r.parent_clock = true;
        r.harness_ms = harness_ms;
        for (double ms : parent_ms) r.calls.push_back(CallReport {.done = true, .parent_ms = ms});
        return r;
    };
    const RunReport baseline = run(0.173, {0.4, 0.177, 0.186, 0.178, 0.175});
    const RunReport student = run(0.124, {0.4, 0.256, 0.256, 0.253, 0.256});
    const double cost = common_harness_cost(baseline, student);
    CHECK(cost == doctest::Approx(0.124));
    CHECK(call_time(baseline.calls[1], baseline, cost) == doctest::Approx(0.053));
    CHECK(call_time(student.calls[1], student, cost) == doctest::Approx(0.132));
    // The student's program cannot have more taken out than the trusted baseline measured.
    CHECK(common_harness_cost(baseline, run(5.0, {6.0, 6.0})) == doctest::Approx(0.173));
    // No empty calls in the student's run (it failed first): the baseline's alone.
    CHECK(common_harness_cost(baseline, run(0, {0.3})) == doctest::Approx(0.173));
    // No baseline measure: nothing taken out; event times where no parent clock ran.
    CHECK(common_harness_cost(run(0, {0.3}), student) == 0);
    RunReport events;
    events.calls.push_back(CallReport {.done = true, .gpu_ms = 0.5, .parent_ms = 9});
    CHECK(call_time(events.calls[0], events, 0.1) == 0.5);
}

TEST_CASE("timing: a file short of its threshold is judged on a fresh round when that round is the better, unless far short")
{
    // A correct vecadd3 in a slow process on the H100 (docs/results/calibration-h100.txt), then the
    // same file in fresh processes, as the file's other checks ran: 0.51x, then 0.91x.
    const auto timing = [](std::vector<double> baseline, std::vector<double> student) {
        Timing t;
        t.threshold = 0.6;
        t.baseline_ms = std::move(baseline);
        t.student_ms = std::move(student);
        return t;
    };
    const Timing slow = timing({0.0811, 0.0797, 0.0831, 0.0764, 0.078, 0.1513, 0.0796, 0.0778},
                               {0.2311, 0.2147, 0.2997, 0.1469, 0.1438, 0.1508, 0.1512, 0.1627});
    const Timing fresh = timing({0.0786, 0.0718, 0.0815, 0.0853, 0.0786, 0.0874, 0.0842, 0.0881},
                                {0.0943, 0.0902, 0.0936, 0.0955, 0.0903, 0.0909, 0.0908, 0.091});
    CHECK(short_of_threshold([&] { Timing t = slow; t.ratio_low = 0.36; t.ratio_high = 0.56; return t; }()));
    const Timing judged = judged_timing(slow, fresh);
    CHECK(judged.ratio == doctest::Approx(0.91).epsilon(0.01));
    CHECK(contains(judged.note, "timed again in fresh processes: 0.51x before"));
    CHECK(finding_of_timing(judged).kind == Verdict::pass);
    // A file slow in both rounds keeps its first measurement, and its verdict.
    std::vector<double> slower = slow.student_ms;
    for (double& ms : slower) ms *= 1.05;
    const Timing still_slow = judged_timing(slow, timing(slow.baseline_ms, slower));
    CHECK(still_slow.student_ms == slow.student_ms);
    CHECK(still_slow.note.empty());
    CHECK(finding_of_timing(still_slow).kind == Verdict::too_slow);
    // Slow again, a little less: the better round counts, and is still too slow.
    const Timing less_slow = judged_timing(slow, timing(fresh.baseline_ms, slow.student_ms));
    CHECK(less_slow.ratio > 0.51);
    CHECK(finding_of_timing(less_slow).kind == Verdict::too_slow);
    // A fresh round that failed (no times) changes nothing.
    CHECK(judged_timing(slow, timing({}, {})).student_ms == slow.student_ms);
    // A pass needs no second round.
    Timing clear = fresh;
    clear.ratio_low = 0.84;
    CHECK_FALSE(short_of_threshold(clear));
    // Nor does a file far short, its fastest calls under a third of the threshold; one a little
    // above that is timed again.
    Timing far = slow;
    far.ratio_low = 0.1;
    far.ratio_high = 0.6 / kFarShort * 0.99;
    CHECK_FALSE(short_of_threshold(far));
    far.ratio_high = 0.6 / kFarShort * 1.01;
    CHECK(short_of_threshold(far));
}

TEST_CASE("timing: a round whose student program made no call before its wall limit runs again, once")
{
    // A baseline that ran its three calls through, and a student's program of
    // the same turn stopped at its wall limit (call Y on an H200: a file whose
    // check takes 5 s made no call in 30 s once).
    RunReport baseline;
    baseline.status = RunStatus::completed;
    baseline.calls.assign(3, CallReport {.done = true});
    RunReport stalled;
    stalled.status = RunStatus::timed_out;
    stalled.calls.assign(3, CallReport {});
    CHECK(stalled_round({baseline, stalled}));
    // Not a stall: a baseline that failed too (the GPU itself, or the machine).
    RunReport failed_baseline = baseline;
    failed_baseline.status = RunStatus::timed_out;
    CHECK_FALSE(stalled_round({failed_baseline, stalled}));
    // Not a stall: slow past the limit after a call was done (judged at once).
    RunReport slow = stalled;
    slow.calls[0].done = true;
    CHECK_FALSE(stalled_round({baseline, slow}));
    // Not a stall: its calls were done and it stayed (a child left behind).
    RunReport lingering = stalled;
    lingering.process.lingered = true;
    CHECK_FALSE(stalled_round({baseline, lingering}));
    // Not a stall: another way to fail (a crash), or no failure.
    RunReport crashed = stalled;
    crashed.status = RunStatus::crashed;
    CHECK_FALSE(stalled_round({baseline, crashed}));
    CHECK_FALSE(stalled_round({baseline, baseline}));
}
