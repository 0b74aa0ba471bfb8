// The parent's own view of a run (run/claims.h): the call lines it read, in
// turn, and the kernels a program contains (run/program_facts.h).
#include "run/claims.h"
#include "run/program_facts.h"
#include "run/task_runner.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {

TaggedLine line(std::uint64_t marker, const char* what, int k, double at_s)
{
    return {wire::tag_prefix(marker) + what + "-" + std::to_string(k) + "@@", at_s};
}

}  // namespace

TEST_CASE("claims: calls are seen in turn, each timed from its begin line to its end line")
{
    const std::uint64_t m = 0x1234;
    const SeenCalls seen = seen_calls({line(m, "begin", 0, 1.0), line(m, "end", 0, 1.002), line(m, "begin", 1, 1.01),
                                       line(m, "end", 1, 1.013), line(m, "begin", 2, 1.02)},
                                      m, 3);
    CHECK(seen.ended == 2);
    CHECK_FALSE(seen.out_of_order);
    REQUIRE(seen.observed_ms.size() == 2);
    CHECK(seen.observed_ms[1] == doctest::Approx(3.0).epsilon(0.01));
}

TEST_CASE("claims: a line out of turn, or of another run's marker, is not the harness's")
{
    const std::uint64_t m = 0x1234;
    CHECK(seen_calls({line(m, "end", 0, 1.0)}, m, 2).out_of_order);
    CHECK(seen_calls({line(m, "begin", 1, 1.0)}, m, 2).out_of_order);
    CHECK(seen_calls({line(m, "begin", 0, 1.0), line(m, "end", 0, 1.1), line(m, "begin", 1, 1.2),
                      line(m, "end", 1, 1.3), line(m, "begin", 2, 1.4)},
                     m, 2)
              .out_of_order);  // more calls than the job has
    const SeenCalls other = seen_calls({line(0x999, "begin", 0, 1.0), line(0x999, "end", 0, 1.1)}, m, 2);
    CHECK(other.ended == 0);
    CHECK_FALSE(other.out_of_order);
}

TEST_CASE("claims: the call lines are taken out of what the program printed")
{
    const std::uint64_t m = 0xabc;
    const std::string p = wire::tag_prefix(m);
    // The harness starts each line with a newline of its own (harness/lab_program.cpp).
    CHECK(without_call_lines("hello\n" + p + "begin-0@@\nworld\n\n" + p + "end-0@@\n", m) == "helloworld\n");
    CHECK(without_call_lines("no lines", m) == "no lines");
}

TEST_CASE("program facts: kernels from nm's stubs, library kernels named, a trace's names checked")
{
    const std::string nm = "0000000000000206 T _Z23__device_stub__Z4minePfPf\n"
                           "00000000000000e8 b _ZGVZL66__device_stub__ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvvvE5__tmp\n"
                           "0000000000000010 T main\n";
    ProgramFacts f {.kernels_known = true, .kernels = kernel_stubs(nm), .traced = true};
    REQUIRE(f.kernels.size() == 2);
    CHECK(f.defines_kernel("_Z4minePf"));
    CHECK_FALSE(f.defines_kernel("_Z5otherPf"));
    CHECK_FALSE(f.defines_kernel(""));
    const auto lib = f.library_kernels();
    REQUIRE(lib.size() == 1);
    CHECK(lib[0].find("cub") != std::string::npos);
    CHECK(kernel_stubs("0000 T main\n").empty());
}

TEST_CASE("claims: timed calls that a busy host saw late or early are no lie, and a claim under half the median call less the slack is one")
{
    RunRequest req;
    req.ncalls = 5;
    req.trace = RunRequest::Trace::none;
    wire::Result result {};
    result.calls_done = 5;
    RunReport report;
    report.status = RunStatus::completed;
    SeenCalls seen;
    seen.ended = 5;
    const auto calls_of = [&](double ms) {
        report.calls.assign(5, CallReport {});
        for (auto& c : report.calls) {
            c.done = true;
            c.gpu_ms = c.host_ms = ms;
        }
    };
    // The H100 suite at eight tests at once: an honest 0.357 ms kernel seen
    // as 1 ms in most calls (the parent read the end lines late).
    seen.observed_ms = {1.2, 1.0, 0.55, 1.0, 1.1};
    calls_of(0.357);
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    calls_of(0.001);  // so short a call cannot be told from the parent's delays
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    // A 2.4 ms kernel, one of whose calls the parent read late at its begin
    // (0.1 ms seen; call 0 is the warm-up, not counted).
    seen.observed_ms = {2.4, 2.45, 0.1, 2.4, 2.5};
    calls_of(2.39);
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    calls_of(0.001);  // a clock that barely moves
    auto why = contradicted_claim(req, result, seen, report);
    REQUIRE(why);
    CHECK(why->find("saw 2.425 ms") != std::string::npos);
    calls_of(0.5);  // under half the median call, less the slack
    CHECK(contradicted_claim(req, result, seen, report));
    calls_of(0.8);  // above it: not proof enough
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
}

TEST_CASE("claims: on hpclab's clock a claim shorter than hpclab saw is no contradiction: a busy host lengthens its view")
{
    RunRequest req;
    req.ncalls = 5;
    req.trace = RunRequest::Trace::none;
    wire::Result result {};
    result.calls_done = 5;
    RunReport report;
    report.status = RunStatus::completed;
    report.parent_clock = true;
    SeenCalls seen;
    seen.ended = 5;  // the parent saw every call end
    report.calls.assign(5, CallReport {});
    // matmul's solution, one of eight checks at once on an H200: its events
    // saw 2.746 ms a call, hpclab's clock 17.667 ms (an honest program).
    for (auto& c : report.calls) {
        c.done = true;
        c.gpu_ms = c.host_ms = 2.746;
        c.parent_ms = 17.667;
    }
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    for (auto& c : report.calls) c.gpu_ms = c.host_ms = 0.001;  // the floor in the timing phase judges this one
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
}
