// The parent against a stand-in lab program (tests/standin): what it makes
// of a run whose program computes honestly, writes into its inputs, or
// writes zeros, with no GPU. The verdict comes from the parent's own view.
#include "check/evidence.h"
#include "run/task_runner.h"
#include "run/run_recipe.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <future>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {

// A run of the lab's first task by the stand-in playing `trick`.
RunRequest standin_request(const char* trick, const char* lab_id, const Params& params, bool timed = false,
                           const ProgramFacts& facts = {})
{
    const LabInfo& lab = lab_of(lab_id);
    const RunTarget t {
        .lab = &lab, .task = &lab.tasks.front(), .program = "lab-program", .params = params, .seed = 3, .facts = facts};
    RunRequest req = timed ? timed_run(t, {.reps = 4}) : correctness_run(t);
    req.cpus.clear();
    req.wrapper = {HPCLAB_LAB_STANDIN, trick};
    return req;
}

RunReport run_standin(const char* trick, const char* lab_id, const Params& params, bool timed = false,
                      const ProgramFacts& facts = {})
{
    return run_task(standin_request(trick, lab_id, params, timed, facts));
}

Verdict verdict_of(const char* lab_id, const Params& params, const RunReport& r)
{
    return verdict_of_run(lab_of(lab_id).tasks.front(), params, r).verdict;
}

}  // namespace

TEST_CASE("stand-in: an honest program passes, in a correctness and in a timed run")
{
    const Params p {{"n", 1000}};
    RunReport r = run_standin("vecadd", "vecadd1", p);
    CHECK(r.status == RunStatus::completed);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
    r = run_standin("vecadd", "vecadd1", p, true);
    REQUIRE(r.calls.size() == 5);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
}

TEST_CASE("stand-in: a write into an input is input_modified, whatever the outputs")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("modify_input", "vecadd1", p);
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].inputs_modified == std::vector<std::string> {"a"});
    CHECK(verdict_of("vecadd1", p, r) == Verdict::input_modified);
    const Params big {{"n", 100000}};
    CHECK(verdict_of("reduction", big, run_standin("modify_input", "reduction", big)) == Verdict::input_modified);
}

TEST_CASE("stand-in: outputs of zeros are a wrong answer, the first one named")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("zero_outputs", "vecadd1", p);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::wrong_answer);
    CHECK(r.calls[0].check.summary.find("c[") != std::string::npos);
}

TEST_CASE("stand-in: calls marked done with nothing written are no_output: the parent poisons the outputs")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("skip_compute", "vecadd1", p);
    CHECK(r.status == RunStatus::completed);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::no_output);
}

TEST_CASE("stand-in: a run claimed finished that hpclab never saw run is tampering")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("claim_unseen", "vecadd1", p);
    CHECK(r.status == RunStatus::tampered);
    CHECK(r.status_message.find("saw 0 of them end") != std::string::npos);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::tampering);
    CHECK_FALSE(r.calls.at(0).done);  // nothing it claims is judged as done
}

TEST_CASE("stand-in: timed calls claimed far faster than hpclab saw them are tampering where the claim is the time shown")
{
    const Params p {{"n", 1000}};
    // Without hpclab's own clock (hpclab run, selftest, bench) the program's
    // times are the ones shown: a claim under half of what hpclab saw is a lie.
    RunRequest req = standin_request("claim_fast", "vecadd1", p, true);
    req.parent_clock = false;
    req.empty_calls = 0;
    const RunReport r = run_task(req);
    CHECK(r.status == RunStatus::tampered);
    CHECK(r.status_message.find("0.001 ms per call") != std::string::npos);
    REQUIRE(r.calls.size() == 5);
    // The parent's view saw the 40 ms, less at most its delay in reading
    // the begin line (a busy CI machine: 16.7 of 20 ms seen), in one call at
    // least: on CI's two cores a parent kept off the CPU for the whole call
    // read a call's begin and end lines together, and saw 0 ms there.
    double longest_seen = 0;
    for (const CallReport& c : r.calls) longest_seen = std::max(longest_seen, c.observed_ms);
    CHECK(longest_seen >= 20.0);
    req.wrapper.back() = "vecadd";
    CHECK(run_task(req).status == RunStatus::completed);
    // On hpclab's clock the claim decides nothing, and a busy host lengthens
    // hpclab's view of an honest call without bound: the run is not
    // tampered; the timing phase holds the claim to the copy floor
    // (check/timing.h finding_of_claimed_times).
    const RunReport clocked = run_standin("claim_fast", "vecadd1", p, true);
    REQUIRE(clocked.parent_clock);
    CHECK(clocked.status == RunStatus::completed);
    CHECK(clocked.calls.at(1).gpu_ms < 0.01);
    CHECK(clocked.calls.at(1).parent_ms >= 10.0);
}

TEST_CASE("stand-in: a call's ledger crosses the exchange: a stream left is not_released, named, through the whole run")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("leave_stream", "vecadd1", p);
    REQUIRE(r.status == RunStatus::completed);
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].trace.resources.left[static_cast<int>(wire::ResourceKind::stream)] == 1);
    const TaskVerdict v = verdict_of_run(lab_of("vecadd1").tasks.front(), p, r);
    CHECK(v.verdict == Verdict::not_released);
    CHECK(v.reason.message.find("1 of the 2 streams it made (made by cudaStreamCreate)") != std::string::npos);
}

TEST_CASE("stand-in: a trace naming a kernel the program does not contain is tampering, and so is a missing one")
{
    const Params p {{"n", 1000}};
    ProgramFacts facts {.kernels_known = true, .kernels = {"Z6vecaddPKiS0_PiiPKiS0_Pii"}, .traced = true};
    RunReport r = run_standin("forge_trace", "vecadd1", p, false, facts);
    CHECK(r.status == RunStatus::tampered);
    CHECK(r.status_message.find("_Z10vecadd_gpuPKiS0_Pii") != std::string::npos);
    facts.kernels.push_back("Z10vecadd_gpuPKiS0_PiiPKiS0_Pii");  // now the program has that kernel
    r = run_standin("forge_trace", "vecadd1", p, false, facts);
    CHECK(r.status == RunStatus::completed);
    r = run_standin("vecadd", "vecadd1", p, false, facts);  // the harness records a trace: none is a lie
    CHECK(r.status == RunStatus::tampered);
    CHECK(r.status_message.find("no CUPTI record") != std::string::npos);
}

TEST_CASE("stand-in: the exchange file cannot be shrunk by the program (sealed)")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("unsealed", "vecadd1", p);
    CHECK(r.process.exit_code == 0);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
}

TEST_CASE("stand-in: a program whose calls are done but that does not end is stopped soon after, a time limit")
{
    // compute-sanitizer waits for every process of the program's tree: a
    // child left sleeping would hold the run until the wall limit (minutes).
    const Params p {{"n", 1000}};
    RunRequest req = standin_request("linger", "vecadd1", p);
    req.linger_limit_s = 1;
    const RunReport r = run_task(req);
    CHECK(r.process.lingered);
    CHECK(r.process.wall_s < 10);  // not the lab's wall limit (30 s), nor the stand-in's 60 s sleep
    CHECK(r.status == RunStatus::timed_out);
    CHECK(r.status_message.find("its calls were done") != std::string::npos);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::time_limit);

    // The same program that ends: no linger.
    req.wrapper = {HPCLAB_LAB_STANDIN, "vecadd"};
    const RunReport honest = run_task(req);
    CHECK_FALSE(honest.process.lingered);
    CHECK(honest.status == RunStatus::completed);
}

TEST_CASE("stand-in: the time limit counts from the GPU ready, and a program cannot push it back")
{
    const Params p {{"n", 1000}};
    // 1.5 s to make its context (a busy GPU): no fault of the program's.
    RunRequest req = standin_request("open_slowly", "vecadd1", p);
    req.wall_limit_s = 1;
    const RunReport slow_start = run_task(req);
    CHECK_FALSE(slow_start.process.timed_out);
    CHECK(slow_start.status == RunStatus::completed);
    CHECK(verdict_of("vecadd1", p, slow_start) == Verdict::pass);

    // Its "ready" line printed again and again: each counts once, in order,
    // so the program is stopped one limit after the first.
    req.wrapper = {HPCLAB_LAB_STANDIN, "reopen"};
    const RunReport pushing = run_task(req);
    CHECK(pushing.process.timed_out);
    CHECK(pushing.process.wall_s < 5);
    CHECK(verdict_of("vecadd1", p, pushing) == Verdict::time_limit);
}

TEST_CASE("stand-in: a program stopped by hpc.h at a CUDA error, then slow to end, is that CUDA error")
{
    // After a fault, the driver can hold exit() up past the limit on a busy
    // GPU (seen on the H100 with ten checks at once): not an endless loop.
    const Params p {{"n", 1000}};
    RunRequest req = standin_request("slow_cuda_exit", "vecadd1", p);
    req.wall_limit_s = 1;
    const RunReport r = run_task(req);
    CHECK(r.process.timed_out);
    CHECK(r.status == RunStatus::student_cuda_error);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::cuda_error);
    // Without hpc.h's words, the same wait is a time limit.
    req.wrapper = {HPCLAB_LAB_STANDIN, "hang"};
    CHECK(verdict_of("vecadd1", p, run_task(req)) == Verdict::time_limit);
}

// The parent's clock (run/call_driver.h): a timed run's calls are started by
// hpclab with a fresh seed each, timed from go to done on its own clock, and
// judged on inputs it makes again from those seeds.
TEST_CASE("stand-in, parent's clock: honest timed calls are timed by hpclab and judged on their revealed inputs")
{
    const Params p {{"n", 1000}};
    RunRequest req = standin_request("vecadd", "vecadd1", p, true);
    REQUIRE(req.parent_clock);
    req.empty_calls = 3;
    const RunReport r = run_task(req);
    CHECK(r.status == RunStatus::completed);
    CHECK(r.parent_clock);
    REQUIRE(r.calls.size() == 5);
    for (const CallReport& c : r.calls) {
        CHECK(c.done);
        CHECK(c.parent_ms > 0);
    }
    CHECK(r.harness_ms > 0);  // the three empty calls, measured
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
}

TEST_CASE("stand-in, parent's clock: a program that says done before its outputs are there is tampering")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("early_done", "vecadd1", p, true);
    CHECK(r.status == RunStatus::tampered);
    CHECK(r.status_message.find("not those the program had when it said the call was done") != std::string::npos);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::tampering);
}

TEST_CASE("stand-in, parent's clock: the previous call's outputs returned again are a wrong answer")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("replay", "vecadd1", p, true);
    REQUIRE(r.calls.size() == 5);
    CHECK(r.calls[0].passed());  // its own outputs
    CHECK_FALSE(r.calls[1].passed());  // the first call's, for other inputs
    CHECK(verdict_of("vecadd1", p, r) == Verdict::wrong_answer);
}

TEST_CASE("stand-in, parent's clock: what a call takes is hpclab's measure, whatever the program reports")
{
    const Params p {{"n", 1000}};
    const RunReport r = run_standin("sleepy", "vecadd1", p, true);
    REQUIRE(r.calls.size() == 5);
    for (const CallReport& c : r.calls) {
        CHECK(c.gpu_ms == doctest::Approx(0.001));  // what it claims
        CHECK(c.parent_ms >= 29.0);                  // what hpclab saw: it sleeps 30 ms a call
    }
}

TEST_CASE("stand-in, parent's clock: a timed run with inputs given whole (an image) sends them, and is judged on them")
{
    const Params p {{"n", 1000}};
    RunRequest req = standin_request("vecadd", "vecadd1", p, true);
    REQUIRE(req.parent_clock);
    req.fill_inputs = [](CallBuffers& call) {
        for (int& v : call.get<int>("a")) v = 7;
        for (int& v : call.get<int>("b")) v = 5;
    };
    std::vector<int> first_c;
    req.on_first_outputs = [&](const CallBuffers& call) {
        const auto c = call.get<int>("c");
        first_c.assign(c.begin(), c.end());
    };
    const RunReport r = run_task(req);
    CHECK_FALSE(r.parent_clock);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
    REQUIRE(first_c.size() == 1000);
    CHECK(first_c[0] == 12);  // the given inputs, not inputs made from a seed
    CHECK(first_c[999] == 12);
}

TEST_CASE("stand-in: a timed program that ends with status 0 behind its gate, unbidden, is tampering")
{
    const Params p {{"n", 1000}};
    SUBCASE("the gate neither opened nor closed: tampering, wanted or not")
    {
        RunRequest req = standin_request("exit", "vecadd1", p, true);
        req.gate = std::make_shared<Gate>();
        const RunReport r = run_task(req);
        CHECK(r.status == RunStatus::tampered);
        CHECK(r.status_message.find("before its timed calls began") != std::string::npos);
        CHECK(verdict_of("vecadd1", p, r) == Verdict::tampering);
    }
    SUBCASE("hpclab closed the gate (no timing needed): cancelled, no blame")
    {
        RunRequest req = standin_request("exit", "vecadd1", p, true);
        req.gate = std::make_shared<Gate>();
        req.gate->close();
        CHECK(run_task(req).status == RunStatus::cancelled);
    }
}

// RunRequest::inputs_ahead: a check makes its timed runs' exchanges while the
// student's file compiles; the run takes the one made for it, and makes its
// own when what was made is another request's.
TEST_CASE("stand-in: a run takes the exchange made ahead for it, and makes its own for another request's")
{
    const Params p {{"n", 1000}};
    RunRequest req = standin_request("vecadd", "vecadd1", p, true);
    const std::shared_ptr<MadeInputs> made = make_inputs({req});
    REQUIRE(exchanges_left(*made) == 1);
    std::promise<std::shared_ptr<MadeInputs>> ahead;
    ahead.set_value(made);
    req.inputs_ahead = ahead.get_future().share();
    RunReport r = run_task(req);
    CHECK(exchanges_left(*made) == 0);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
    r = run_task(req);  // taken once: the same request again makes its own
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);

    const std::shared_ptr<MadeInputs> other = make_inputs({standin_request("vecadd", "vecadd1", {{"n", 999}}, true)});
    std::promise<std::shared_ptr<MadeInputs>> wrong;
    wrong.set_value(other);
    req.inputs_ahead = wrong.get_future().share();
    r = run_task(req);
    CHECK(exchanges_left(*other) == 1);
    CHECK(verdict_of("vecadd1", p, r) == Verdict::pass);
    REQUIRE(r.calls.size() == 5);
}
