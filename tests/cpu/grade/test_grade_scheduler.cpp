// hpclab grade's scheduling over several GPUs, on the CPU with stand-ins for
// the compiler, the checks and the GPUs' health: a worker per GPU, waves
// from one queue, each file checked and saved once; a GPU found unhealthy
// after a wave is taken out of service and its wave is checked again on
// another GPU; with no GPU left, the files are grader errors or left for
// the next run, never lost or passed.
#include "grade/class_run.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

GpuInfo stand_in_gpu(int index)
{
    GpuInfo g;
    g.present = true;
    g.pinned = true;
    g.index = index;
    g.name = "stand-in";
    g.uuid = "GPU-stand-in-" + std::to_string(index);
    return g;
}

struct StandIns {
    std::mutex mutex;
    std::vector<std::pair<std::string, int>> checked;  // student, GPU index, in order
    std::map<int, int> waves;                          // GPU index -> health checks
    std::map<int, int> fail_at_wave;                   // GPU index -> the wave after which it is unhealthy

    ClassSteps steps()
    {
        ClassSteps s;
        s.build = [](const GradeJob&) { return true; };
        s.check = [this](const GradeJob& job, const GpuInfo& gpu, GpuTurns*) {
            std::this_thread::sleep_for(std::chrono::milliseconds(15));
            {
                std::lock_guard lock(mutex);
                checked.emplace_back(job.student, gpu.index);
            }
            LabCheck c {.lab = job.submission->lab, .source = job.submission->file, .gpu = gpu, .seed = job.seed};
            for (const TaskInfo& t : c.lab->tasks) {
                TaskCheck tc {.task = &t};
                tc.verdict = {t.id, Verdict::pass, {}, {}};
                c.tasks.push_back(tc);
            }
            c.overall = Verdict::pass;
            return c;
        };
        s.baseline = [](const GpuInfo&) { return GpuBaseline {}; };
        s.health = [this](const GpuInfo& gpu, const GpuBaseline&) {
            std::lock_guard lock(mutex);
            const int wave = ++waves[gpu.index];
            const auto f = fail_at_wave.find(gpu.index);
            if (f != fail_at_wave.end() && wave >= f->second) return GpuHealth {false, "a stand-in fault"};
            return GpuHealth {};
        };
        s.record = [](const LabCheck&) { return nlohmann::json::object(); };
        return s;
    }
};

struct StandInClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<GradeJob> jobs;
    explicit StandInClass(int students)
    {
        for (int i = 0; i < students; ++i) dir.write("class/s" + std::to_string(10 + i) + "/vecadd3.cu", "// " + std::to_string(i) + "\n");
        cls = discover_class(dir.path() / "class", catalog());
        for (const Student& s : cls.students) jobs.push_back({s.id, s.folder, &s.submissions.front(), 1});
    }
};

}  // namespace

TEST_CASE("grade scheduler: two GPUs share the queue, and every file is checked and saved once")
{
    StandInClass c(12);
    StandIns stand_ins;
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.checks_per_wave = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()};
    const ClassRunTotals t = grade_jobs({}, {stand_in_gpu(0), stand_in_gpu(1)}, c.jobs, out, o);
    CHECK(t.checked == 12);
    CHECK(t.moved == 0);
    CHECK(stand_ins.checked.size() == 12);
    CHECK(stand_ins.waves[0] + stand_ins.waves[1] == 6);
    CHECK(stand_ins.waves[0] > 0);
    CHECK(stand_ins.waves[1] > 0);  // both GPUs worked
    const auto results = out.all_results();
    REQUIRE(results.size() == 12);
    for (const LabResult& r : results) CHECK(r.overall == Verdict::pass);
}

TEST_CASE("grade scheduler: a GPU unhealthy after a wave leaves, and its wave is checked again on the other")
{
    StandInClass c(12);
    StandIns stand_ins;
    stand_ins.fail_at_wave[1] = 2;  // GPU 1 breaks during its second wave
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.checks_per_wave = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()};
    const ClassRunTotals t = grade_jobs({}, {stand_in_gpu(0), stand_in_gpu(1)}, c.jobs, out, o);
    CHECK(stand_ins.waves[1] == 2);  // and no wave after
    CHECK(t.moved == 2);
    REQUIRE(t.out_of_service.size() == 1);
    CHECK(t.out_of_service.front().find("a stand-in fault") != std::string::npos);
    CHECK(fs::exists(c.dir.path() / "gpus" / "GPU-stand-in-1"));
    // The voided wave's students ran twice: on GPU 1, then on GPU 0.
    std::map<std::string, std::vector<int>> runs_of;
    for (const auto& [student, gpu] : stand_ins.checked) runs_of[student].push_back(gpu);
    int twice = 0;
    for (const auto& [student, gpus] : runs_of)
        if (gpus.size() == 2) {
            ++twice;
            CHECK(gpus == std::vector<int> {1, 0});
        }
    CHECK(twice == 2);
    const auto results = out.all_results();
    REQUIRE(results.size() == 12);  // nothing lost
    for (const LabResult& r : results) CHECK(r.overall == Verdict::pass);
}

TEST_CASE("grade scheduler: with no GPU left, a voided wave is saved as grader errors and the rest waits for the next run")
{
    StandInClass c(8);
    StandIns stand_ins;
    stand_ins.fail_at_wave[0] = 1;
    const GradeFolder out(c.dir.path() / "out");
    ClassRunOptions o {.checks_per_wave = 2, .gpu_service_dir = c.dir.path() / "gpus", .steps = stand_ins.steps()};
    const ClassRunTotals t = grade_jobs({}, {stand_in_gpu(0)}, c.jobs, out, o);
    CHECK(t.checked == 2);
    const auto results = out.all_results();
    REQUIRE(results.size() == 2);
    for (const LabResult& r : results) {
        CHECK(r.overall == Verdict::grader_error);
        CHECK_FALSE(r.final());  // graded again next time
    }
    // The GPU stays out of service: the next run checks nothing on it.
    StandIns again;
    const ClassRunTotals t2 = grade_jobs({}, {stand_in_gpu(0)}, c.jobs, out,
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
    const ClassRunTotals t = grade_jobs({}, {stand_in_gpu(0)}, c.jobs, out, o);
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
    const ClassRunTotals t = grade_jobs({}, {stand_in_gpu(0)}, c.jobs, out, o);
    CHECK(t.checked == 8);
    CHECK_FALSE(checked_before_its_compile);
    CHECK(checked_before_all_compiled);  // one compile at a time, 60 ms each: the checks began long before the last
    CHECK(out.all_results().size() == 8);
}
