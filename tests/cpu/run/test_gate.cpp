// The start gate between hpclab and a timed run's program (gate.h), with a
// shell standing in for the program: it says "ready" on one descriptor and
// waits for "go" on the other, as the harness does.
#include "run/gate.h"
#include "run/run_recipe.h"
#include "process/process.h"
#include "run/task_runner.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <mutex>

#include <chrono>
#include <future>
#include <thread>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

// The gate's descriptors as the program sees them, for a shell script.
struct GateFds {
    std::string go, ready;
    explicit GateFds(const Gate& gate)
        : go(std::to_string(gate.child_go_fd())), ready(std::to_string(gate.child_ready_fd()))
    {
    }
};

// The shell of the scripts below that stand in for a program: bash, whose
// redirections take a descriptor of any number (dash's `<&N` and `N>&-` take
// one digit, and a test process that holds a few more files, such as
// HPCLAB_TIMELINE's and one from its parent, hands on descriptor 10).
constexpr const char* kShell = "/bin/bash";

// A shell script standing in for the program behind `gate`.
std::future<ProcessResult> start_script(Gate& gate, const std::string& script, double wall_limit_s)
{
    ProcessSpec spec;
    spec.argv = {kShell, "-c", script};
    spec.pass_fds = {gate.child_go_fd(), gate.child_ready_fd()};
    spec.wall_limit_s = wall_limit_s;
    spec.after_start = [&gate] { gate.program_started(); };
    spec.held = gate.held();
    return std::async(std::launch::async, [spec] { return run_process(spec); });
}

// Says ready, then prints "went" only when a byte arrives on the go descriptor.
std::future<ProcessResult> start_behind(Gate& gate, double wall_limit_s, const std::string& before_ready = "")
{
    const GateFds fd(gate);
    return start_script(gate,
                        before_ready + "printf r >&" + fd.ready + "; exec " + fd.ready + ">&-; " +
                            "if [ -n \"$(head -c1 <&" + fd.go + ")\" ]; then echo went; else echo closed; fi",
                        wall_limit_s);
}

// A vecadd3 run of a program that is not there: starting it would be could_not_start.
RunRequest run_of_no_program(std::int64_t n)
{
    const LabInfo& lab = lab_of("vecadd3");
    RunRequest req;
    req.lab = &lab;
    req.task = &lab.tasks.front();
    req.spec = find_task_spec("vecadd3", "add");
    req.params = {{"n", n}};
    req.program = "/nonexistent/program";
    req.wall_limit_s = wall_limit_s(lab, RunUse::plain);
    return req;
}

}  // namespace

TEST_CASE("gate: the program makes its calls after go, not before")
{
    Gate gate;
    auto run = start_behind(gate, 10);
    REQUIRE(gate.wait_ready(10));
    CHECK(run.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);  // still waiting
    gate.go();
    const ProcessResult r = run.get();
    CHECK(gate.opened());
    CHECK_FALSE(gate.closed());
    CHECK(r.exit_code == 0);
    CHECK(r.out == "went\n");
}

TEST_CASE("gate: a closed gate ends the program without its calls")
{
    Gate gate;
    auto run = start_behind(gate, 10);
    REQUIRE(gate.wait_ready(10));
    gate.close();
    const ProcessResult r = run.get();
    CHECK_FALSE(gate.opened());
    CHECK(gate.closed());
    CHECK(r.out == "closed\n");
}

TEST_CASE("gate: a run whose gate closed before it began starts no program and makes no inputs")
{
    // The baseline's timed run is prepared before the student's code is
    // compiled; a compile error closes its gate, and the check must not wait
    // for inputs no one will use.
    RunRequest req = run_of_no_program(1 << 26);
    req.ncalls = 9;
    req.input_sets = 3;
    req.gate = std::make_shared<Gate>();
    req.gate->close();
    const RunReport r = run_task(req);
    CHECK(r.status == RunStatus::cancelled);
    CHECK_FALSE(r.process.started);
    CHECK(r.work.bytes == 0);  // it stopped before sizing the work: no inputs were made
}

namespace {

// A gated run told to start later, its program a shell speaking the
// harness's side of an open gate: it says "r" on its ready descriptor as
// soon as it runs (the test's proof that it started before it was told),
// prints "opened" once a byte arrives on its open descriptor (the end of
// that pipe: it exits 0, as the harness does), then "went" on go.
struct HeldShellRun {
    RunRequest req = run_of_no_program(1000);
    std::promise<void> start;
    std::future<RunReport> run;

    // `after_ready`: what the shell does once it said "r" (by default what
    // the harness does: waits to open, then for go).
    explicit HeldShellRun(const std::string& after_ready = "[ -n \"$(head -c1 <&$open)\" ] || exit 0; echo opened; "
                                                           "[ -n \"$(head -c1 <&$go)\" ] && echo went")
    {
        req.gate = std::make_shared<Gate>();
        req.gate->open_when(start.get_future().share());
        req.wrapper = {kShell, "-c",
                       "while [ $# -gt 0 ]; do [ \"$1\" = --gate ] && g=$2; shift; done; "
                       "go=${g%%,*}; rest=${g#*,}; ready=${rest%%,*}; open=${rest#*,}; "
                       "[ \"$open\" != \"$rest\" ] || { echo no-open-descriptor; exit 0; }; "
                       "printf r >&$ready; " + after_ready,
                       "sh"};
        run = std::async(std::launch::async, [this] { return run_task(req); });
    }
    ~HeldShellRun()
    {
        req.gate->close();
        try { start.set_value(); } catch (const std::future_error&) {}
        if (run.valid()) run.wait();
    }
};

}  // namespace

TEST_CASE("gate: a gated run told to open later starts its program at once, which opens its GPU only once told")
{
    // A check's timed programs: started beside the correctness runs' own,
    // their CUDA contexts made after that program has its GPU.
    HeldShellRun held;
    REQUIRE(held.req.gate->wait_ready(10));  // running, not told yet
    CHECK(held.run.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
    held.start.set_value();
    held.req.gate->go();
    const RunReport r = held.run.get();
    CHECK(r.process.started);
    CHECK(r.process.out == "opened\nwent\n");
}

TEST_CASE("gate: a gated run whose gate closes before it is told to open ends there, not run and not blamed")
{
    // A check that fails its correctness runs closes the gate first.
    HeldShellRun held;
    REQUIRE(held.req.gate->wait_ready(10));
    held.req.gate->close();
    const RunReport r = held.run.get();  // ends without being told
    CHECK(r.status == RunStatus::cancelled);
    CHECK(r.process.started);
    CHECK(r.process.out.empty());  // never opened
}

TEST_CASE("gate: a program that does not leave when its gate closes unwanted is stopped soon after, not at its limit")
{
    // A timed program still in a static constructor of the student's when
    // its check fails: it never reads its gate, and its wall limit would
    // hold the check (and a class's timed turns) 30 s more.
    HeldShellRun held("exec sleep 60");
    REQUIRE(held.req.gate->wait_ready(10));
    const auto t0 = std::chrono::steady_clock::now();
    held.req.gate->close();
    const RunReport r = held.run.get();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(kDismissedLimitSeconds + 5));
    CHECK(r.status == RunStatus::cancelled);
    CHECK(r.process.started);
}

TEST_CASE("gate: a program wanted and never ready keeps its limit, and its failure is said")
{
    // run_calls wants the program, and closes the gate when it is not ready
    // in time: that is the program's failure, not a dismissal.
    Gate gate;
    gate.want();
    gate.close();
    CHECK_FALSE(gate.dismissed()->load());
    Gate unwanted;
    unwanted.close();
    CHECK(unwanted.dismissed()->load());
}

TEST_CASE("gate: a run whose gate closed before its inputs were made starts nothing, told later or not")
{
    RunRequest req = run_of_no_program(1000);
    req.gate = std::make_shared<Gate>();
    std::promise<void> start;
    req.gate->open_when(start.get_future().share());
    req.gate->close();
    const RunReport r = run_task(req);
    CHECK(r.status == RunStatus::cancelled);
    CHECK_FALSE(r.process.started);
    CHECK(r.process.start_error.empty());  // not even tried
}

TEST_CASE("run moments: a caller that holds the run at inputs_made holds its start, and hears the moments in order")
{
    RunRequest req = run_of_no_program(1000);
    std::promise<void> start;
    auto told = start.get_future().share();
    auto heard = std::make_shared<std::vector<RunMoment>>();
    auto mutex = std::make_shared<std::mutex>();
    req.at = [told, heard, mutex](RunMoment m) {
        {
            const std::lock_guard lock(*mutex);
            heard->push_back(m);
        }
        if (m == RunMoment::inputs_made) told.wait();
    };
    auto run = std::async(std::launch::async, [req] { return run_task(req); });
    CHECK(run.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
    start.set_value();
    const RunReport r = run.get();
    // It tried (the program is not there; in a sandbox, the sandbox starts and fails to run it).
    CHECK(r.status != RunStatus::cancelled);
    CHECK((r.process.started || !r.process.start_error.empty()));
    // No GPU was opened: the three other moments, in their order.
    CHECK(*heard == std::vector {RunMoment::inputs_made, RunMoment::program_ended, RunMoment::judging_next});
}

TEST_CASE("gate: the wall limit does not run while the program waits at the gate")
{
    Gate gate;
    auto run = start_behind(gate, 0.5);
    REQUIRE(gate.wait_ready(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // longer than the limit, held
    gate.go();
    const ProcessResult r = run.get();
    CHECK_FALSE(r.timed_out);
    CHECK(r.out == "went\n");
}

TEST_CASE("gate: once open, the wall limit runs again")
{
    Gate gate;
    ProcessSpec spec;
    const std::string go = std::to_string(gate.child_go_fd());
    spec.argv = {kShell, "-c", "head -c1 <&" + go + " >/dev/null; sleep 30"};
    spec.pass_fds = {gate.child_go_fd(), gate.child_ready_fd()};
    spec.wall_limit_s = 0.5;
    spec.after_start = [&gate] { gate.program_started(); };
    spec.held = gate.held();
    auto run = std::async(std::launch::async, [spec] { return run_process(spec); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    gate.go();
    const ProcessResult r = run.get();
    CHECK(r.timed_out);
    CHECK(r.wall_s < 5);
}

TEST_CASE("gate: a program that ends before it is ready, or never starts, is not waited for")
{
    SUBCASE("ends")
    {
        Gate gate;
        ProcessSpec spec;
        spec.argv = {"/bin/sh", "-c", "exit 3"};
        spec.pass_fds = {gate.child_go_fd(), gate.child_ready_fd()};
        spec.after_start = [&gate] { gate.program_started(); };
        spec.held = gate.held();
        CHECK(run_process(spec).exit_code == 3);
        const auto t0 = std::chrono::steady_clock::now();
        CHECK_FALSE(gate.wait_ready(10));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
        gate.go();  // no one reads: must not raise SIGPIPE here
    }
    SUBCASE("never starts")
    {
        Gate gate;
        gate.program_started();  // what hpclab does once its run is over, started or not
        CHECK_FALSE(gate.wait_ready(10));
    }
    SUBCASE("is slow to get ready: the wait ends at its timeout")
    {
        Gate gate;
        auto run = start_behind(gate, 10, "sleep 2; ");
        const auto t0 = std::chrono::steady_clock::now();
        CHECK_FALSE(gate.wait_ready(0.2));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
        gate.close();
        CHECK(run.get().out == "closed\n");
    }
}

namespace {

// Says ready, waits for go, then says `after` on the ready descriptor (the
// harness says "f" once its calls are over) and lingers `linger` seconds.
std::future<ProcessResult> start_finishing(Gate& gate, const std::string& after, const std::string& linger)
{
    const GateFds fd(gate);
    return start_script(gate,
                        "printf r >&" + fd.ready + "; head -c1 <&" + fd.go + " >/dev/null; printf '" + after + "' >&" +
                            fd.ready + "; exec " + fd.ready + ">&-; sleep " + linger,
                        20);
}

}  // namespace

TEST_CASE("gate: a program that says it is finished is heard before it ends, and no word or another is not finished")
{
    {
        Gate gate;
        auto run = start_finishing(gate, "f", "2");
        CHECK_FALSE(gate.wait_finished(1));  // not before go
        REQUIRE(gate.wait_ready(10));
        gate.go();
        CHECK(gate.wait_finished(10));
        CHECK(run.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);  // still ending
        CHECK(run.get().exit_code == 0);
    }
    for (const char* after : {"", "x"}) {
        Gate gate;
        auto run = start_finishing(gate, after, "0");
        REQUIRE(gate.wait_ready(10));
        gate.go();
        CHECK_FALSE(gate.wait_finished(10));  // the end of the pipe, or a byte that is not "f"
        run.get();
    }
}

TEST_CASE("gate: a program that waits for leave after its finished word ends only at let_end, its limit held")
{
    // The harness's way with host memory from the lab's own allocator: it
    // says "f", then reads the go pipe to its end (harness_main.cpp).
    Gate gate;
    const GateFds fd(gate);
    auto run = start_script(gate,
                            "printf r >&" + fd.ready + "; head -c1 <&" + fd.go + " >/dev/null; printf f >&" + fd.ready +
                                "; exec " + fd.ready + ">&-; cat <&" + fd.go + " >/dev/null; echo left",
                            0.5);
    REQUIRE(gate.wait_ready(10));
    gate.go();
    REQUIRE(gate.wait_finished(10));
    CHECK(gate.held()->load());
    // Longer than its wall limit: waiting for hpclab is not its time.
    CHECK(run.wait_for(std::chrono::milliseconds(1200)) == std::future_status::timeout);
    gate.let_end();
    CHECK_FALSE(gate.held()->load());
    const ProcessResult r = run.get();
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "left\n");
}
