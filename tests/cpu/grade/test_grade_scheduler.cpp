// hpclab grade's scheduling on a GPU, on the CPU with stand-ins for the
// compiler, the checks and the GPU's health: waves of checks, a bounded set
// at once, each file checked and saved once; a GPU found unhealthy after a
// wave is taken out of service, its wave's files are grader errors and the
// rest is left for the next run, never lost or passed. Inside a wave the
// checks start longest expected first, and the files compile in that order.
#include "grade/class_run.h"
#include "grade_helpers.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::stand_in_check;
using hpclab::test::stand_in_gpu;
using hpclab::test::stand_in_health;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

struct StandIns {
    std::mutex mutex;
    std::vector<std::pair<std::string, int>> checked;  // student, GPU index, in order
    std::map<int, int> waves;                          // GPU index -> health checks
    std::map<int, int> fail_at_wave;                   // GPU index -> the wave after which it is unhealthy
    std::map<int, int> in_wave;                        // GPU index -> checks since its last health check
    std::vector<int> wave_sizes;                       // every wave's size, as their health checks came

    ClassSteps steps()
    {
        ClassSteps s;
        s.build = [](const GradeJob&) { return true; };
        s.check = [this](const GradeJob& job, const GpuInfo& gpu, GpuTurns*) {
            std::this_thread::sleep_for(std::chrono::milliseconds(15));
            {
                std::lock_guard lock(mutex);
                checked.emplace_back(job.student, gpu.index);
                ++in_wave[gpu.index];
            }
            return stand_in_check(job, gpu, Verdict::pass);
        };
        s.baseline = [](const GpuInfo&) { return GpuBaseline {}; };
        s.health = [this](const GpuInfo& gpu, const GpuBaseline&) {
            std::lock_guard lock(mutex);
            const int wave = ++waves[gpu.index];
            wave_sizes.push_back(std::exchange(in_wave[gpu.index], 0));
            return stand_in_health(fail_at_wave, gpu, wave);
        };
        s.record = [](const LabCheck&) { return nlohmann::json::object(); };
        return s;
    }
};

// Each student hands in every one of `labs`; the jobs: student by student, each's files in course order.
struct StandInClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<GradeJob> jobs;
    explicit StandInClass(int students, const std::vector<std::string>& labs = {"vecadd3"})
    {
        for (int i = 0; i < students; ++i)
            for (const std::string& lab : labs)
                dir.write("class/s" + std::to_string(10 + i) + "/" + lab + ".cu", "// " + lab + " " + std::to_string(i) + "\n");
        cls = discover_class(dir.path() / "class", catalog());
        for (const Student& s : cls.students)
            for (const Submission& sub : s.submissions) jobs.push_back({s.id, s.folder, &sub, 1});
    }
};

// "s10 vecadd3": a job's name in the orders the tests record.
std::string job_name(const GradeJob& job) { return job.student + " " + job.submission->lab->id; }

}  // namespace

// Labs whose expected cost is clearly ordered by their metadata: reduction
// (three tasks, two timed) > vecadd3 (one timed) > vecadd2 (two tasks, none
// timed) > hello (one task of five sizes) > vecadd0 (one size).
const std::vector<std::string> kMixedLabs {"hello", "vecadd0", "vecadd2", "vecadd3", "reduction"};

TEST_CASE("grade scheduler: every file is checked and saved once, in whole waves")
{
    StandInClass c(40);
    StandIns stand_ins;
    const GradeFolder out(c.dir.path() / "out");
    const ClassRunTotals t = grade_jobs(
        {}, stand_in_gpu(0), c.jobs, out,
        {.checks_at_once = 4, .checks_per_wave = 16, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()});
    CHECK(t.checked == 40);
    CHECK(stand_ins.checked.size() == 40);
    CHECK(stand_ins.wave_sizes == std::vector<int> {16, 16, 8});
    const auto results = out.all_results();
    REQUIRE(results.size() == 40);
    for (const LabResult& r : results) CHECK(r.overall == Verdict::pass);
}

TEST_CASE("grade scheduler: a GPU unhealthy after a wave leaves: the wave is saved as grader errors and the rest waits for the next run")
{
    StandInClass c(8);
    StandIns stand_ins;
    stand_ins.fail_at_wave[0] = 1;
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.checks_per_wave = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()};
    const ClassRunTotals t = grade_jobs({}, stand_in_gpu(0), c.jobs, out, o);
    CHECK(t.checked == 2);
    CHECK(t.out_of_service.find("a stand-in fault") != std::string::npos);
    CHECK(fs::exists(c.dir.path() / "gpus" / "GPU-stand-in-0"));
    const auto results = out.all_results();
    REQUIRE(results.size() == 2);
    for (const LabResult& r : results) {
        CHECK(r.overall == Verdict::grader_error);
        CHECK_FALSE(r.final());  // graded again next time
    }
    // The GPU stays out of service: the next run checks nothing on it.
    StandIns again;
    const ClassRunTotals t2 = grade_jobs({}, stand_in_gpu(0), c.jobs, out,
                                         {.checks_per_wave = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = again.steps()});
    CHECK(t2.checked == 0);
    CHECK(again.checked.empty());
}

TEST_CASE("grade scheduler: a wave keeps its checks at once going, a new one as one ends, and the health is checked per wave")
{
    StandInClass c(12);
    StandIns stand_ins;
    std::mutex m;
    int now = 0, most = 0;
    ClassSteps steps = stand_ins.steps();
    const auto check = steps.check;
    steps.check = [&](const GradeJob& job, const GpuInfo& gpu, GpuTurns* turns) {
        {
            std::lock_guard lock(m);
            most = std::max(most, ++now);
        }
        LabCheck r = check(job, gpu, turns);
        std::lock_guard lock(m);
        --now;
        return r;
    };
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.checks_at_once = 3, .checks_per_wave = 6, .gpu_service_dir = c.dir.path() / "gpus", .steps = steps};
    const ClassRunTotals t = grade_jobs({}, stand_in_gpu(0), c.jobs, out, o);
    CHECK(t.checked == 12);
    CHECK(t.waves == 2);
    CHECK(stand_ins.waves[0] == 2);  // one health check after each wave of six
    CHECK(most == 3);                // never more than three at once, and three at once
    CHECK(out.all_results().size() == 12);
}

TEST_CASE("grade scheduler: a file is checked once it is compiled, while later files still compile")
{
    StandInClass c(8);
    StandIns stand_ins;
    ClassSteps steps = stand_ins.steps();
    std::mutex mutex;
    std::set<std::string> compiled;
    bool checked_before_all_compiled = false, checked_before_its_compile = false;
    steps.build = [&](const GradeJob& job) {
        std::this_thread::sleep_for(std::chrono::milliseconds(job.student == "s10" ? 0 : 60));  // the first is quick
        std::lock_guard lock(mutex);
        compiled.insert(job.student);
        return true;
    };
    const auto check = steps.check;
    steps.check = [&](const GradeJob& job, const GpuInfo& gpu, GpuTurns* turns) {
        {
            std::lock_guard lock(mutex);
            checked_before_its_compile = checked_before_its_compile || !compiled.count(job.student);
            checked_before_all_compiled = checked_before_all_compiled || compiled.size() < c.jobs.size();
        }
        return check(job, gpu, turns);
    };
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.compile_jobs = 1, .gpu_service_dir = c.dir.path() / "gpus", .steps = steps};
    const ClassRunTotals t = grade_jobs({}, stand_in_gpu(0), c.jobs, out, o);
    CHECK(t.checked == 8);
    CHECK_FALSE(checked_before_its_compile);
    CHECK(checked_before_all_compiled);  // one compile at a time, 60 ms each: the checks began long before the last
    CHECK(out.all_results().size() == 8);
}


// A grading of `c` one compile and one check at a time, with the order the
// files compiled in and the checks started in ("s10 hello", ...).
struct RunOrder {
    std::vector<std::string> compiled, started;
    int waves = 0;
    std::size_t saved = 0;
};
RunOrder run_order(const StandInClass& c, int checks_per_wave)
{
    RunOrder r;
    StandIns stand_ins;
    ClassSteps steps = stand_ins.steps();
    std::mutex mutex;  // the compiler's thread and the check's
    steps.build = [&](const GradeJob& job) {
        std::lock_guard lock(mutex);
        r.compiled.push_back(job_name(job));
        return true;
    };
    const auto check = steps.check;
    steps.check = [&](const GradeJob& job, const GpuInfo& gpu, GpuTurns* turns) {
        {
            std::lock_guard lock(mutex);
            r.started.push_back(job_name(job));
        }
        return check(job, gpu, turns);
    };
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.compile_jobs = 1, .checks_at_once = 1, .checks_per_wave = checks_per_wave,
                       .gpu_service_dir = c.dir.path() / "gpus", .steps = steps};
    r.waves = grade_jobs({}, stand_in_gpu(0), c.jobs, out, o).waves;
    r.saved = out.all_results().size();
    return r;
}

TEST_CASE("grade scheduler: inside a wave the checks start longest expected first, ties in job order")
{
    StandInClass c(2, kMixedLabs);
    REQUIRE(c.jobs.size() == 10);
    CHECK(job_name(c.jobs.front()) == "s10 hello");  // the jobs come in course order
    // A wave per student: each wave sorted on its own.
    RunOrder r = run_order(c, 5);
    CHECK(r.waves == 2);
    CHECK(r.started == std::vector<std::string> {"s10 reduction", "s10 vecadd3", "s10 vecadd2", "s10 hello", "s10 vecadd0",
                                                 "s11 reduction", "s11 vecadd3", "s11 vecadd2", "s11 hello", "s11 vecadd0"});
    CHECK(r.saved == 10);  // each saved as its own, whatever the order
    // One wave: the same lab's files in job order.
    StandInClass again(2, kMixedLabs);
    r = run_order(again, 10);
    CHECK(r.waves == 1);
    CHECK(r.started == std::vector<std::string> {"s10 reduction", "s11 reduction", "s10 vecadd3", "s11 vecadd3", "s10 vecadd2",
                                                 "s11 vecadd2", "s10 hello", "s11 hello", "s10 vecadd0", "s11 vecadd0"});
    CHECK(r.saved == 10);
}

TEST_CASE("grade scheduler: a program lab's files (the student writes main) are ordered and checked with the rest")
{
    // The program lab has no task spec to plan runs from: its expected cost
    // is its two programs' runs, below a timed lab's (it crashed the
    // ordering once, before any check started).
    StandInClass c(2, {"program", "streams", "hello"});
    const RunOrder r = run_order(c, 6);
    CHECK(r.saved == 6);
    CHECK(r.started == std::vector<std::string> {"s10 streams", "s11 streams", "s10 hello", "s11 hello", "s10 program",
                                                 "s11 program"});
}

TEST_CASE("grade scheduler: the files compile in the order their checks start")
{
    StandInClass c(2, kMixedLabs);
    const RunOrder r = run_order(c, 5);
    REQUIRE(r.started.size() == 10);
    CHECK(r.started.front() == "s10 reduction");  // not the jobs' order
    CHECK(r.compiled == r.started);
}

TEST_CASE("grade scheduler: a wave is sixteen times the checks at once unless told otherwise")
{
    const auto waves_for = [](int files) {
        StandInClass c(files);
        StandIns stand_ins;
        const GradeFolder out(c.dir.path() / "out");
        ClassRunOptions o {.checks_at_once = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()};
        const ClassRunTotals t = grade_jobs({}, stand_in_gpu(0), c.jobs, out, o);
        CHECK(t.checked == files);
        CHECK(t.waves == stand_ins.waves[0]);  // a health check per wave
        return t.waves;
    };
    CHECK(waves_for(32) == 1);
    CHECK(waves_for(33) == 2);
}
