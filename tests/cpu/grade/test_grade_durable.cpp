// Durable results (grade/class_run.h): a result is written the moment its
// check ends and covered once its GPU's next health check passes; a failed
// health check has only the files since the last good one checked again;
// a kill -9 at any moment loses at most the checks under way, and the same
// grading after it covers what was left with a health check first. On the
// CPU, with stand-ins for the compiler, the checks and the GPU's health
// (the kill on a real GPU: scripts/kill-resume.sh).
#include "grade/class_grading.h"
#include "grade/class_run.h"
#include "grade_helpers.h"
#include "test_support.h"
#include "util/text.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::stand_in_check;
using hpclab::test::stand_in_gpu;
using hpclab::test::stand_in_health;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A verdict that depends on the file alone, as a real check's does.
Verdict verdict_of(const GradeJob& job) { return job.submission->content_hash % 3 ? Verdict::pass : Verdict::wrong_answer; }

struct StandIns {
    std::mutex mutex;
    std::vector<std::string> events;       // "check s10", "health 0", in order
    std::vector<bool> watched_at_health;   // per health check: its baseline had a watch of the driver's errors
    std::map<std::string, int> checks;     // student -> checks
    std::map<int, int> fail_at_wave;       // GPU -> the wave after which it is unhealthy
    std::map<int, int> waves;
    int check_ms = 5;
    fs::path ended_log;                    // when set: each ended check appended, before its result is written
    std::function<void(const GpuInfo&)> at_health;

    ClassSteps steps()
    {
        ClassSteps s;
        s.build = [](const GradeJob&) { return true; };
        s.check = [this](const GradeJob& job, const GpuInfo& gpu, GpuTurns*) {
            std::this_thread::sleep_for(std::chrono::milliseconds(check_ms));
            const LabCheck c = stand_in_check(job, gpu, verdict_of(job));
            std::lock_guard lock(mutex);
            events.push_back("check " + job.student);
            ++checks[job.student];
            if (!ended_log.empty()) {
                const int fd = ::open(ended_log.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
                const std::string line = job.student + "\n";
                (void)!::write(fd, line.data(), line.size());
                ::close(fd);
            }
            return c;
        };
        // A watch of the driver's errors made with the baseline (one that
        // cannot tell here): a health check sees it only where the programs
        // it vouches for ran after the baseline.
        s.baseline = [](const GpuInfo&) { return GpuBaseline {.errors = std::make_shared<GpuErrorWatch>("")}; };
        s.health = [this](const GpuInfo& gpu, const GpuBaseline& before) {
            if (at_health) at_health(gpu);
            std::lock_guard lock(mutex);
            events.push_back("health " + std::to_string(gpu.index));
            watched_at_health.push_back(before.errors != nullptr);
            return stand_in_health(fail_at_wave, gpu, ++waves[gpu.index]);
        };
        s.record = [](const LabCheck&) { return nlohmann::json::object(); };
        return s;
    }
};

struct StandInClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<const Student*> students;
    explicit StandInClass(int n)
    {
        for (int i = 0; i < n; ++i) dir.write("class/s" + std::to_string(10 + i) + "/vecadd3.cu", "// " + std::to_string(i) + "\n");
        cls = discover_class(dir.path() / "class", catalog());
        for (const Student& s : cls.students) students.push_back(&s);
    }
    fs::path out() const { return dir.path() / "out"; }
    fs::path gpus() const { return dir.path() / "gpus"; }
};

ClassRunOptions options(StandIns& s, const StandInClass& c, int at_once, int wave)
{
    return {.checks_at_once = at_once, .checks_per_wave = wave, .gpu_service_dir = c.gpus(), .steps = s.steps()};
}

}  // namespace

TEST_CASE("grade durable: a result is written as its check ends, and covered once its wave's GPU is found clean")
{
    StandInClass c(6);
    StandIns s;
    const GradeFolder out(c.out());
    std::vector<std::string> seen_at_health;  // "s10 uncovered", as the results stood when each health check began
    s.at_health = [&](const GpuInfo&) {
        for (const LabResult& r : out.all_results()) seen_at_health.push_back(r.student + (r.covered ? " covered" : " uncovered"));
    };
    const auto jobs = pending_jobs(out, c.students, 7, false);
    REQUIRE(jobs.to_check.size() == 6);
    grade_jobs({}, stand_in_gpu(0), jobs.to_check, out, options(s, c, 3, 3));
    // At the first health check the first wave's three results were there, none covered yet.
    REQUIRE(seen_at_health.size() >= 3);
    CHECK(seen_at_health.front() == "s10 uncovered");
    int uncovered_at_first = 0;
    for (std::size_t i = 0; i < 3; ++i) uncovered_at_first += seen_at_health[i].find(" uncovered") != std::string::npos;
    CHECK(uncovered_at_first == 3);
    const auto results = out.all_results();
    REQUIRE(results.size() == 6);
    for (const LabResult& r : results) CHECK(r.covered);
    CHECK(pending_jobs(out, c.students, 7, false).to_check.empty());
    CHECK(pending_jobs(out, c.students, 7, false).uncovered.empty());
}

TEST_CASE("grade durable: a failed health check has only the files since the last good one checked again")
{
    StandInClass c(9);
    StandIns s;
    s.fail_at_wave[0] = 2;  // clean after its first wave, broken after its second: no GPU left for the third
    const GradeFolder out(c.out());
    grade_jobs({}, stand_in_gpu(0), pending_jobs(out, c.students, 7, false).to_check, out, options(s, c, 3, 3));
    for (const auto& [student, n] : s.checks) CHECK(n == 1);
    // The next run checks the second wave (grader errors now) and the third (never begun), not the first.
    const PendingJobs next = pending_jobs(out, c.students, 7, false);
    std::vector<std::string> again;
    for (const GradeJob& j : next.to_check) again.push_back(j.student);
    std::sort(again.begin(), again.end());
    CHECK(again == std::vector<std::string> {"s13", "s14", "s15", "s16", "s17", "s18"});
    CHECK(next.uncovered.empty());
    for (const char* first_wave : {"s10", "s11", "s12"}) {
        const auto r = out.load(first_wave, "vecadd3");
        REQUIRE(r);
        CHECK(r->covered);
        CHECK(r->final());
    }
}

TEST_CASE("grade durable: results an earlier run left uncovered are covered by a health check first, or checked again")
{
    for (const bool healthy : {true, false}) {
        CAPTURE(healthy);
        StandInClass c(4);
        const GradeFolder out(c.out());
        {
            StandIns first;
            grade_jobs({}, stand_in_gpu(0), pending_jobs(out, c.students, 7, false).to_check, out, options(first, c, 2, 4));
            // Each wave's health check, with the watch made before its checks ran.
            REQUIRE_FALSE(first.watched_at_health.empty());
            for (const bool watched : first.watched_at_health) CHECK(watched);
        }
        // As a kill leaves them: written, the health check never come.
        for (LabResult r : out.all_results()) {
            r.covered = false;
            out.save(r);
        }
        const PendingJobs pending = pending_jobs(out, c.students, 7, false);
        CHECK(pending.to_check.empty());
        REQUIRE(pending.uncovered.size() == 4);
        StandIns second;
        if (!healthy) second.fail_at_wave[0] = 1;
        const ClassRunTotals t = grade_jobs({}, stand_in_gpu(0), pending.to_check, out,
                                            options(second, c, 2, 4), pending.uncovered);
        REQUIRE_FALSE(second.events.empty());
        CHECK(second.events.front() == "health 0");  // before anything runs
        // The earlier run's programs ran before any watch: the canary decides.
        REQUIRE_FALSE(second.watched_at_health.empty());
        CHECK_FALSE(second.watched_at_health.front());
        CHECK(t.covered_leftovers == (healthy ? 4 : 0));
        CHECK(t.redone_leftovers == (healthy ? 0 : 4));
        CHECK(second.checks.empty());  // covered; or the GPU is out of service, and nothing runs on it
        // Covered, or left uncovered for a later run to cover or grade again, never taken as covered.
        for (const LabResult& r : out.all_results()) CHECK(r.covered == healthy);
        CHECK(pending_jobs(out, c.students, 7, false).uncovered.size() == (healthy ? 0u : 4u));
        CHECK(fs::exists(c.gpus() / "GPU-stand-in-0") == !healthy);
    }
}

TEST_CASE("grade durable: kill -9 at any moment loses at most the checks under way, and the same grading ends as one run")
{
    constexpr int kFiles = 24, kAtOnce = 3;
    StandInClass whole(kFiles);
    {
        StandIns s;
        grade_jobs({}, stand_in_gpu(0), pending_jobs(GradeFolder(whole.out()), whole.students, 7, false).to_check,
                   GradeFolder(whole.out()), options(s, whole, kAtOnce, 6));
    }
    std::map<std::string, Verdict> uninterrupted;
    for (const LabResult& r : GradeFolder(whole.out()).all_results()) uninterrupted[r.student] = r.overall;
    REQUIRE(uninterrupted.size() == kFiles);

    StandInClass c(kFiles);
    const GradeFolder out(c.out());
    const fs::path ended = c.dir.path() / "ended.log";
    for (const std::size_t kill_after : {1u, 5u, 11u, 17u}) {  // checks ended before the kill (a random moment's stand-in)
        CAPTURE(kill_after);
        const PendingJobs pending = pending_jobs(out, c.students, 7, false);
        fs::remove(ended);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {  // the grading, killed below
            StandIns s;
            s.check_ms = 20;
            s.ended_log = ended;
            grade_jobs({}, stand_in_gpu(0), pending.to_check, out, options(s, c, kAtOnce, 6), pending.uncovered);
            ::_exit(0);
        }
        pid_t ended_itself = 0;
        while (read_text_file(ended).value_or("").size() < kill_after * 4 &&  // "s1N\n" a check
               (ended_itself = ::waitpid(child, nullptr, WNOHANG)) == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (ended_itself == 0) {
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
        }
        // Every check that ended before the kill has its result, but those whose write the kill cut.
        int lost = 0;
        for (const std::string& student : split(read_text_file(ended).value_or(""), '\n'))
            lost += !out.load(student, "vecadd3");
        CHECK(lost <= kAtOnce);
    }
    // The same grading once more, to its end: every file once, covered, as the uninterrupted run judged it.
    const PendingJobs last = pending_jobs(out, c.students, 7, false);
    StandIns s;
    grade_jobs({}, stand_in_gpu(0), last.to_check, out, options(s, c, kAtOnce, 6), last.uncovered);
    const auto results = out.all_results();
    REQUIRE(results.size() == kFiles);
    for (const LabResult& r : results) {
        CHECK(r.covered);
        CHECK(r.overall == uninterrupted.at(r.student));
    }
    CHECK(pending_jobs(out, c.students, 7, false).to_check.empty());
}
