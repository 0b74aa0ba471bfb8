// The parent's own view of a run (run/claims.h): the call lines it read, in
// turn, and the kernels a program contains (run/program_facts.h).
#include "run/claims.h"
#include "run/program_facts.h"
#include "run/task_runner.h"
#include "test_support.h"
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
    // A busy two-core host (CI) read the lines of an honest call of
    // microseconds late in most calls: still no lie.
    seen.observed_ms = {6.0, 8.5, 0.2, 9.0, 7.5};
    calls_of(0.004);
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    // A 24 ms kernel, one of whose calls the parent read late at its begin
    // (1 ms seen; call 0 is the warm-up, not counted).
    seen.observed_ms = {24.0, 24.5, 1.0, 24.0, 25.0};
    calls_of(23.9);
    CHECK_FALSE(contradicted_claim(req, result, seen, report));
    calls_of(0.001);  // a clock that barely moves
    auto why = contradicted_claim(req, result, seen, report);
    REQUIRE(why);
    CHECK(why->find("saw 24.250 ms") != std::string::npos);
    calls_of(5.0);  // under half the median call, less the slack
    CHECK(contradicted_claim(req, result, seen, report));
    calls_of(8.0);  // above it: not proof enough
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

TEST_CASE("program facts: a kernel's origin is the file of its definition in the PTX's line table, whatever its namespace")
{
    // As nvcc -lineinfo writes it (CUDA 13.0): CUB's kernels in a namespace of the student's own
    // choosing (CUB_WRAPPED_NAMESPACE), the line table's files at the end.
    const std::string ptx = ".visible .entry _Z10own_kernelPi(\n"
                            "\t.param .u64 _Z10own_kernelPi_param_0\n)\n{\n"
                            "\t.loc\t1 4 0\n\tld.param.u64 \t%rd1, [_Z10own_kernelPi_param_0];\n"
                            "\t.loc\t2 364 5, function_name $L__info_string0, inlined_at 1 9 5\n\tret;\n}\n"
                            ".visible .entry _Z6inlinedPi(\n)\n{\n"
                            "\t.loc\t2 364 5, function_name $L__info_string0, inlined_at 1 12 5\n"
                            "\t.loc\t1 11 0\n\tret;\n}\n"
                            "\t// .globl\t_ZN4mine3cub6detail11EmptyKernelIvEEvv\n"
                            ".visible .entry _ZN4mine3cub6detail11EmptyKernelIvEEvv()\n{\n\t.loc\t3 73 0\n\tret;\n}\n"
                            ".func  (.param .b32 func_retval0) _Z6helperi(\n)\n{\n\t.loc\t3 10 0\n\tret;\n}\n"
                            ".visible .entry _Z7no_lineb()\n{\n\tret;\n}\n"
                            "\t.file\t1 \"/tmp/build/src/reduction.cu\"\n"
                            "\t.file\t2 \"/usr/local/cuda-13.0/include/cooperative_groups/details/reduce.h\"\n"
                            "\t.file\t3 \"/usr/local/cuda-13.0/include/cccl/cub/util_device.cuh\"\n";
    const auto origins = kernel_origins(ptx);
    using Origin = std::pair<std::string, std::string>;
    CHECK(origins == std::vector<Origin> {{"_Z10own_kernelPi", "/tmp/build/src/reduction.cu"},
                                          {"_Z6inlinedPi", "/tmp/build/src/reduction.cu"},
                                          {"_ZN4mine3cub6detail11EmptyKernelIvEEvv",
                                           "/usr/local/cuda-13.0/include/cccl/cub/util_device.cuh"}});
    // Kept beside the program: only the kernels defined outside the student's file (a relative
    // name, as the #line gave it, made absolute by nvcc, is the student's too).
    const test::TempDir dir;
    dir.write("keep/reduction.compute_90.ptx", ptx);
    const auto program = dir.path() / "reduction-student";
    keep_kernel_origins(dir.path() / "keep", "src/reduction.cu", program);
    const ProgramFacts f = read_program_facts(program, true);
    CHECK(f.origins_known);
    CHECK(f.foreign_kernels == std::vector<std::string> {"_ZN4mine3cub6detail11EmptyKernelIvEEvv"});
    REQUIRE(f.library_kernels().size() == 1);
    CHECK(f.library_kernels()[0] == "void mine::cub::detail::EmptyKernel<void>()");
    // The same name elsewhere is not the student's file; no PTX kept: the origins stay unknown.
    keep_kernel_origins(dir.path() / "keep", "other/reduction.cu", program);
    CHECK(read_program_facts(program, true).foreign_kernels.size() == 3);
    const auto unknown = dir.path() / "unknown-student";
    keep_kernel_origins(dir.path() / "nothing", "src/reduction.cu", unknown);
    CHECK_FALSE(read_program_facts(unknown, true).origins_known);
}
