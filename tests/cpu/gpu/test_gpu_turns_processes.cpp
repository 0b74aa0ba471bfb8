// GpuTurns across processes (gpu/gpu_turns.h): turns made for a GPU hold
// against every other process's on the same lock files. Two GpuTurns
// objects in this process behave as two processes there (each turn has an
// open file description of its own, and flock locks belong to those), and
// one test forks a real second process. The waits are handshakes: a turn
// that must not get in is watched for a moment, one that must get in is
// given many seconds; the objects' own wait for other processes is 60 s, so
// that a broken turn fails its test rather than hanging it.
#include "gpu/gpu_turns.h"
#include "process/process.h"
#include "run/run_recipe.h"
#include "process/sandbox.h"
#include "run/task_runner.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

using namespace hpclab;
using namespace std::chrono_literals;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr double kTestWait_s = 60;
const std::string kUuid = "GPU-turns-test-0000";

// $HPCLAB_GPU_TURNS_DIR for one test, as it was after it.
class TurnsFolder {
public:
    explicit TurnsFolder(const fs::path& dir)
    {
        if (const char* v = std::getenv("HPCLAB_GPU_TURNS_DIR")) old_ = v;
        setenv("HPCLAB_GPU_TURNS_DIR", dir.c_str(), 1);
    }
    ~TurnsFolder()
    {
        if (old_) setenv("HPCLAB_GPU_TURNS_DIR", old_->c_str(), 1);
        else unsetenv("HPCLAB_GPU_TURNS_DIR");
    }
    TurnsFolder(const TurnsFolder&) = delete;
    TurnsFolder& operator=(const TurnsFolder&) = delete;

private:
    std::optional<std::string> old_;
};

// Whether `flag` turns true within `within` (generous: only a turn that
// never comes is a failure).
bool becomes_true(const std::atomic<bool>& flag, std::chrono::seconds within = 30s)
{
    const auto until = std::chrono::steady_clock::now() + within;
    while (!flag && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return flag;
}

// A moment in which a turn that must wait is watched not getting in.
void a_moment() { std::this_thread::sleep_for(200ms); }

// The descriptors of this process open on files in `dir`.
std::vector<int> fds_in(const fs::path& dir)
{
    std::vector<int> fds;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc/self/fd", ec)) {
        std::error_code ec2;
        const fs::path target = fs::read_symlink(e.path(), ec2);
        if (!ec2 && target.parent_path() == dir) fds.push_back(std::stoi(e.path().filename().string()));
    }
    return fds;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A turn of `a` held (alone or shared) keeps a turn of `b` out until it ends.
void check_keeps_out(GpuTurns& a, bool held_alone, GpuTurns& b, bool other_alone)
{
    std::optional<GpuTurns::Turn> held(std::in_place, &a, held_alone);
    std::atomic<bool> in {false};
    std::thread other([&] {
        const GpuTurns::Turn turn(&b, other_alone);
        in = true;
    });
    a_moment();
    CHECK_FALSE(in.load());
    held.reset();
    CHECK(becomes_true(in));
    other.join();
}

// A turn of `a` held (alone or shared), a turn of `b` gets in beside it.
void check_gets_in(GpuTurns& a, bool held_alone, GpuTurns& b, bool other_alone)
{
    const GpuTurns::Turn held(&a, held_alone);
    std::atomic<bool> in {false};
    std::thread other([&] {
        const GpuTurns::Turn turn(&b, other_alone);
        in = true;
    });
    CHECK(becomes_true(in));
    other.join();
}

}  // namespace

TEST_CASE("gpu turns across processes: an alone turn of one process keeps out a shared turn of another, and the other way round")
{
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns a(kUuid, kTestWait_s), b(kUuid, kTestWait_s);
    REQUIRE(a.across_processes());
    REQUIRE(b.across_processes());
    SUBCASE("alone, then shared") { check_keeps_out(a, true, b, false); }
    SUBCASE("shared, then alone") { check_keeps_out(a, false, b, true); }
    SUBCASE("alone, then alone") { check_keeps_out(a, true, b, true); }
}

TEST_CASE("gpu turns across processes: shared turns of two processes hold the GPU together, and an alone turn on another GPU keeps them out")
{
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns a(kUuid, kTestWait_s), b(kUuid, kTestWait_s);
    check_gets_in(a, false, b, false);
    // A timed phase has the machine alone: driver calls on one GPU slow
    // timed calls on another (gpu_turns.h). Shared turns on two GPUs mix.
    GpuTurns elsewhere("GPU-turns-test-0001", kTestWait_s);
    REQUIRE(elsewhere.across_processes());
    SUBCASE("alone here, then alone on the other GPU") { check_keeps_out(a, true, elsewhere, true); }
    SUBCASE("alone here, then shared on the other GPU") { check_keeps_out(a, true, elsewhere, false); }
    SUBCASE("shared here, then alone on the other GPU") { check_keeps_out(a, false, elsewhere, true); }
    SUBCASE("shared here and on the other GPU") { check_gets_in(a, false, elsewhere, false); }
}

TEST_CASE("gpu turns across processes: a waiting alone turn is not starved by another process's stream of shared turns")
{
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns timing(kUuid, kTestWait_s), correctness(kUuid, kTestWait_s);
    std::atomic<bool> stop {false};
    std::atomic<int> holding {0}, turns {0};
    // Two threads of shared turns, 20 ms each, one after the other at once,
    // staggered: the other process's GPU is never without a shared turn.
    const auto stream = [&] {
        while (!stop) {
            const auto shared = GpuTurns::shared(&correctness);
            ++holding;
            ++turns;
            std::this_thread::sleep_for(20ms);
            --holding;
        }
    };
    std::thread first(stream);
    for (int k = 0; k < 30000 && turns < 1; ++k) std::this_thread::sleep_for(1ms);
    CHECK(turns >= 1);
    std::thread second([&] {
        std::this_thread::sleep_for(10ms);
        stream();
    });
    std::this_thread::sleep_for(100ms);  // the stream is going
    std::atomic<bool> in {false};
    std::atomic<int> most_held_beside {0};
    std::thread timed([&] {
        const auto alone = GpuTurns::alone(&timing);
        for (int k = 0; k < 50; ++k) {  // 50 ms alone: none of the stream's turns held meanwhile
            most_held_beside = std::max(most_held_beside.load(), holding.load());
            std::this_thread::sleep_for(1ms);
        }
        in = true;
    });
    CHECK(becomes_true(in));  // while the stream goes on: no starvation
    const int turns_before = turns;
    for (int k = 0; k < 30000 && turns == turns_before; ++k) std::this_thread::sleep_for(1ms);
    CHECK(turns > turns_before);  // and the stream goes on after it
    stop = true;
    first.join();
    second.join();
    timed.join();
    CHECK(most_held_beside == 0);
}

TEST_CASE("gpu turns across processes: alone turns waiting go one after another, before a shared turn that asked first")
{
    // A third process's timed phase comes while a shared turn already waits
    // for the first's: it goes next, so the shared programs that would
    // have started in between do not make it wait for them to end.
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns first(kUuid, kTestWait_s), correctness(kUuid, kTestWait_s), second(kUuid, kTestWait_s);
    std::optional<GpuTurns::Turn> held(std::in_place, &first, true);
    std::atomic<bool> shared_in {false}, alone_in {false}, shared_in_before_alone {false};
    std::thread shared([&] {
        const auto turn = GpuTurns::shared(&correctness);
        shared_in = true;
    });
    a_moment();  // the shared turn waits
    std::thread timed([&] {
        const auto turn = GpuTurns::alone(&second);
        shared_in_before_alone = shared_in.load();
        a_moment();  // held a moment: a shared turn that got in beside it would show
        alone_in = true;
    });
    a_moment();
    CHECK_FALSE(shared_in.load());
    CHECK_FALSE(alone_in.load());
    held.reset();
    CHECK(becomes_true(alone_in));
    CHECK(becomes_true(shared_in));
    shared.join();
    timed.join();
    CHECK_FALSE(shared_in_before_alone.load());
}

TEST_CASE("gpu turns across processes: a forked process's alone turn keeps this one's shared turn out until it ends, or is killed")
{
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns here(kUuid, kTestWait_s);
    REQUIRE(here.across_processes());
    for (const bool killed : {false, true}) {
        CAPTURE(killed);
        int said[2], go[2];
        REQUIRE(pipe(said) == 0);
        REQUIRE(pipe(go) == 0);
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) {  // the other process: an alone turn until told to end
            close(said[0]);
            close(go[1]);
            int status = 1;
            {
                GpuTurns there(kUuid, kTestWait_s);
                if (there.across_processes()) {
                    const auto alone = GpuTurns::alone(&there);
                    char c = 'h';
                    if (write(said[1], &c, 1) == 1 && read(go[0], &c, 1) >= 0) status = 0;
                }
            }
            _exit(status);
        }
        close(said[1]);
        close(go[0]);
        char c = 0;
        REQUIRE(read(said[0], &c, 1) == 1);  // the child holds its turn
        std::atomic<bool> in {false};
        std::thread shared([&] {
            const auto turn = GpuTurns::shared(&here);
            in = true;
        });
        a_moment();
        CHECK_FALSE(in.load());
        if (killed) kill(child, SIGKILL);
        else CHECK(write(go[1], &c, 1) == 1);
        CHECK(becomes_true(in));
        shared.join();
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        if (killed) CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
        else CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
        close(said[0]);
        close(go[1]);
    }
}

TEST_CASE("gpu turns across processes: the folder is made for every user, the lock files open to them")
{
    TempDir tmp;
    const fs::path dir = tmp.path() / "deeper" / "turns";
    TurnsFolder folder(dir);
    CHECK(GpuTurns::lock_folder() == dir);
    GpuTurns turns(kUuid, kTestWait_s);
    REQUIRE(turns.across_processes());
    struct stat st {};
    REQUIRE(stat(dir.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 01777);
    // One lock file and gate for the machine, whichever GPU made them.
    for (const std::string name : {std::string(GpuTurns::kLockName), GpuTurns::kLockName + std::string(".gate")}) {
        CAPTURE(name);
        REQUIRE(stat((dir / name).c_str(), &st) == 0);
        CHECK(S_ISREG(st.st_mode));
        CHECK((st.st_mode & 0777) == 0666);
    }
    GpuTurns odd("../GPU/with slashes", kTestWait_s);
    CHECK(odd.across_processes());
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);
    // Without an UUID: this process only.
    CHECK_FALSE(GpuTurns("", kTestWait_s).across_processes());
}

TEST_CASE("gpu turns across processes: a turn's descriptor closes on exec, so no program hpclab starts has it")
{
    TempDir tmp;
    const fs::path dir = tmp.path() / "turns";
    TurnsFolder folder(dir);
    GpuTurns turns(kUuid, kTestWait_s);
    REQUIRE(turns.across_processes());
    CHECK(fds_in(dir).empty());  // none while no turn is held
    const auto alone = GpuTurns::alone(&turns);
    const std::vector<int> fds = fds_in(dir);
    REQUIRE(fds.size() == 1);  // the GPU's lock file; the gate was let go
    CHECK((fcntl(fds.front(), F_GETFD) & FD_CLOEXEC) != 0);
    ProcessSpec ls;
    ls.argv = {"/bin/ls", "-l", "/proc/self/fd/"};
    const ProcessResult r = run_process(ls);
    REQUIRE(r.exited());
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "/proc/"));  // it listed its descriptors (their targets)
    CHECK_FALSE(has(r.out, dir.string()));
}

TEST_CASE("gpu turns across processes: the lock folder (under /tmp) is not in the sandbox")
{
    if (const auto why = sandbox_unavailable()) {
        MESSAGE("no sandbox here, this test is left out: " << *why);
        return;
    }
    std::string tmpl = "/tmp/hpclab-gpu-turns-test-XXXXXX";  // the default folder's place, not $TMPDIR
    REQUIRE(mkdtemp(tmpl.data()));
    const fs::path dir = tmpl;
    {
        TurnsFolder folder(dir);
        GpuTurns turns(kUuid, kTestWait_s);
        REQUIRE(turns.across_processes());
        const auto shared = GpuTurns::shared(&turns);
        const LabInfo& lab = hpclab::test::lab_of("vecadd1");
        const RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "lab-program", .params = {{"n", 1000}}, .seed = 3};
        RunRequest req = correctness_run(t);
        req.wrapper = {HPCLAB_LAB_STANDIN, "read_path=" + (dir / GpuTurns::kLockName).string()};
        req.sandboxed = false;
        CHECK(has(run_task(req).process.err, "read ok"));  // the trick works
        req.sandboxed = true;
        CHECK(has(run_task(req).process.err, "read refused"));
    }
    CHECK(fs::path(GpuTurns::kDefaultLockFolder).parent_path() == "/tmp");  // hidden there as this one is
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST_CASE("gpu turns across processes: a folder that cannot be made leaves the turns in this process, working as before")
{
    TempDir tmp;
    const fs::path file = tmp.write("not-a-folder", "x");
    for (const fs::path& dir : {file, file / "turns"}) {
        CAPTURE(dir);
        TurnsFolder folder(dir);
        GpuTurns a(kUuid, kTestWait_s), b(kUuid, kTestWait_s);
        CHECK_FALSE(a.across_processes());
        CHECK_FALSE(b.across_processes());
        // In this process: the alone turn waits for the shared one ...
        check_keeps_out(a, false, a, true);
        // ... and another object's turns are not held by it (nothing is shared with it).
        check_gets_in(a, true, b, true);
    }
}

TEST_CASE("gpu turns across processes: a turn held for ever elsewhere costs one wait, then the turns go on, until it is let go")
{
    TempDir tmp;
    TurnsFolder folder(tmp.path() / "turns");
    GpuTurns stuck(kUuid, kTestWait_s), patient(kUuid, 0.3);
    std::optional<GpuTurns::Turn> held(std::in_place, &stuck, true);
    std::atomic<bool> in {false};
    std::thread waits([&] {
        const auto shared = GpuTurns::shared(&patient);  // after 0.3 s, without the other process
        in = true;
    });
    CHECK(becomes_true(in));
    waits.join();
    {
        const auto next = GpuTurns::shared(&patient);  // only tries now: at once
    }
    held.reset();
    // Let go: the turns hold across processes again.
    check_keeps_out(patient, false, stuck, true);
}

TEST_CASE("gpu counters: one profiler at a time on the machine, held apart from the GPU's turns")
{
    TempDir dir;
    const TurnsFolder folder(dir.path());
    std::optional<GpuTurns::Counters> first(std::in_place, 5.0);
    REQUIRE(first->held());
    {
        // A second profiler waits, and is not given the counters while the first holds them.
        const GpuTurns::Counters second(0.2);
        CHECK_FALSE(second.held());
        // The GPU's own turns are not the counters': a shared turn is had meanwhile.
        GpuTurns turns(kUuid, 1.0);
        const GpuTurns::Turn shared = GpuTurns::shared(&turns);
    }
    first.reset();
    const GpuTurns::Counters third(5.0);
    CHECK(third.held());
}
