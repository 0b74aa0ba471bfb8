// warpreduce's technique, from what hpclab sees itself: the kernels' machine
// code exchanges registers within a warp (run/sass.h: SHFL, or REDUX, a warp
// reduction on sm_80 and up), and the grid of each size's call fills the
// GPU once (check/grid_evidence.h: at most lab.json's blocks per
// multiprocessor, counted by hpclab's own probe of the GPU).
#include "check/code_evidence.h"
#include "check/grid_evidence.h"
#include "evidence_support.h"
#include "run/sass.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using namespace hpclab::test;

namespace {

// The one-pass sum (its warp sum a device function it calls), the same with
// __reduce_add_sync (REDUX), the course's tree (no exchange within a warp),
// and a tree whose only shuffle is compiler padding that never runs.
const char* const kListing = R"SASS(
	code for sm_90
		Function : _Z8warp_sumi
        /*0000*/                   SHFL.DOWN PT, R3, R4, 0x10, 0x1f ;      /* 0x0a001f0004037f89 */
        /*0010*/                   IMAD.IADD R3, R3, 0x1, R4 ;             /* 0x0000000103037824 */
        /*0020*/                   RET.REL.NODEC R2 0x0 ;                  /* 0xffffffc002007950 */
		..........

		Function : _Z10sum_kernelPKiiPi
        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;            /* 0x0000000402047981 */
        /*0010*/                   CALL.REL.NOINC `(_Z8warp_sumi) ;        /* 0x0000000000007944 */
        /*0020*/                   STS [R5], R3 ;                          /* 0x0000000305007388 */
        /*0030*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;           /* 0x0000000000007b1d */
        /*0040*/                   RED.E.ADD.STRONG.GPU desc[UR4][R6.64], R3 ; /* 0x000000030600798e */
        /*0050*/                   EXIT ;                                  /* 0x000000000000794d */
		..........

		Function : _Z10redux_sumPKiiPi
        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;            /* 0x0000000402047981 */
        /*0010*/                   REDUX.SUM.S32 UR6, R4 ;                 /* 0x00000000040673c4 */
        /*0020*/                   EXIT ;                                  /* 0x000000000000794d */
		..........

		Function : _Z4treePKiiPi
        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;            /* 0x0000000402047981 */
        /*0010*/                   STS [R5], R4 ;                          /* 0x0000000405007388 */
        /*0020*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;           /* 0x0000000000007b1d */
        /*0030*/                   LDS R6, [R5+0x4] ;                      /* 0x0000040005067984 */
        /*0040*/              @!PT SHFL.IDX PT, RZ, RZ, RZ, RZ ;           /* 0x000000fffffff389 */
        /*0050*/                   RED.E.ADD.STRONG.GPU desc[UR4][R6.64], R3 ; /* 0x000000030600798e */
        /*0060*/                   EXIT ;                                  /* 0x000000000000794d */
		..........
)SASS";

const KernelCode& find(const std::vector<KernelCode>& all, const std::string& name)
{
    const auto it = std::find_if(all.begin(), all.end(), [&](const KernelCode& k) { return k.name == name; });
    REQUIRE(it != all.end());
    return *it;
}

ProgramFacts facts_of(const std::string& listing)
{
    ProgramFacts f;
    f.code_known = true;
    f.code = parse_sass(listing);
    return f;
}

wire::KernelRecord launch(const char* name, int blocks = 264) { return kernel(name, {blocks, 1, 1}, {1024, 1, 1}, 128); }

// One size's run whose first call launched `launches`, traced.
SizeRun run_of(std::int64_t n, std::vector<wire::KernelRecord> launches, bool traced = true)
{
    SizeRun run {SizeCase {{{"n", n}}, "", false}, {}};
    CallReport call;
    call.done = true;
    call.trace.traced = traced ? 1 : 0;
    call.trace.kernels = static_cast<std::uint32_t>(launches.size());
    for (std::size_t i = 0; i < launches.size(); ++i) call.trace.kernel[i] = launches[i];
    run.report.calls.push_back(call);
    return run;
}

}  // namespace

TEST_CASE("sass: a warp shuffle or a warp reduction that runs, in the kernel or a function it calls")
{
    const auto all = parse_sass(kListing);
    CHECK(find(all, "_Z8warp_sumi").reduces_in_warp);
    CHECK(find(all, "_Z10sum_kernelPKiiPi").reduces_in_warp);  // through its call
    CHECK(find(all, "_Z10redux_sumPKiiPi").reduces_in_warp);   // REDUX: __reduce_add_sync
    CHECK_FALSE(find(all, "_Z4treePKiiPi").reduces_in_warp);   // @!PT: never runs
}

TEST_CASE("code evidence: a warp_shuffle task's kernel must exchange registers within a warp")
{
    const TaskInfo& sum = task_of("warpreduce", "sum");
    REQUIRE(sum.technique == "warp_shuffle");
    const ProgramFacts facts = facts_of(kListing);
    CHECK(findings_of_code(sum, facts, {launch("_Z10sum_kernelPKiiPi")}).empty());
    CHECK(findings_of_code(sum, facts, {launch("_Z10redux_sumPKiiPi")}).empty());
    const auto tree = findings_of_code(sum, facts, {launch("_Z4treePKiiPi")});
    CHECK(kinds(tree) == std::vector<Verdict> {Verdict::no_warp_shuffle});
    REQUIRE(!tree.empty());
    CHECK(tree.front().message.find("your kernel tree") != std::string::npos);
    CHECK(tree.front().message.find("__shfl_down_sync") != std::string::npos);
    // Any launched kernel with the exchange will do (a memset kernel beside it).
    CHECK(findings_of_code(sum, facts, {launch("_Z4treePKiiPi"), launch("_Z10sum_kernelPKiiPi")}).empty());
    // A call the listing does not name may be the shuffle: nothing is said.
    const ProgramFacts opaque = facts_of("Function : _Z4treePKiiPi\n        /*0000*/   CALL.REL.NOINC 0x40 ;\n");
    CHECK(findings_of_code(sum, opaque, {launch("_Z4treePKiiPi")}).empty());
    // Other labs' tasks are not asked for shuffles.
    CHECK(findings_of_code(task_of("reduction", "atomic"), facts, {launch("_Z4treePKiiPi", 1)}).empty());
}

TEST_CASE("grid evidence: at most lab.json's blocks per multiprocessor, at every size, on hpclab's count of them")
{
    const TaskInfo& sum = task_of("warpreduce", "sum");
    REQUIRE(sum.expect.asks(LessonFact::grid_fills_gpu_once)->blocks_per_sm == 32);
    const int sms = 132;  // an H100
    // The resident grid (2 blocks of 1024 a multiprocessor), and up to the bound.
    CHECK_FALSE(finding_of_launch_facts(sum, {run_of(16777219, {launch("k", 264)})}, sms));
    CHECK_FALSE(finding_of_launch_facts(sum, {run_of(16777219, {launch("k", 32 * sms)})}, sms));
    // One block per 1024 elements at 2^24 + 3: 16385 blocks.
    const auto per_1024 = finding_of_launch_facts(sum, {run_of(100, {launch("k", 1)}), run_of(16777219, {launch("k", 16385)})}, sms);
    REQUIRE(per_1024);
    CHECK(per_1024->kind == Verdict::wrong_launch);
    CHECK(per_1024->where == "n=16777219");
    CHECK(per_1024->message.find("16385 blocks") != std::string::npos);
    CHECK(per_1024->message.find("132 of them") != std::string::npos);
    // The largest launch of the call counts, whichever comes first.
    CHECK(finding_of_launch_facts(sum, {run_of(16777219, {launch("memset", 1), launch("k", 4225)})}, sms));
    // A grid in two dimensions counts all its blocks.
    CHECK(finding_of_launch_facts(sum, {run_of(16777219, {kernel("k", {100, 50, 1}, {32, 1, 1})})}, sms));
    // Unknown multiprocessors, an untraced call, or a task with no bound: nothing said.
    CHECK_FALSE(finding_of_launch_facts(sum, {run_of(16777219, {launch("k", 16385)})}, 0));
    CHECK_FALSE(finding_of_launch_facts(sum, {run_of(16777219, {launch("k", 16385)}, false)}, sms));
    CHECK_FALSE(finding_of_launch_facts(task_of("reduction", "atomic"), {run_of(16777219, {launch("k", 16385)})}, sms));
}

TEST_CASE("grid evidence: one thread per element, an upper bound with a spare block, past a grid sized to the GPU")
{
    const int sms = 132;
    const TaskInfo& add = task_of("vecadd3", "add");
    REQUIRE(add.expect.one_thread_per == std::vector<std::string> {"n"});
    const auto blocks_of = [](int b, int threads = 1024) { return kernel("add", {b, 1, 1}, {threads, 1, 1}); };
    // The lesson's grid, one spare block ((n + BLKDIM) / BLKDIM), fewer threads that loop.
    CHECK_FALSE(finding_of_thread_count(add, {run_of(16777217, {blocks_of(16385)})}, sms));
    CHECK_FALSE(finding_of_thread_count(add, {run_of(16777216, {blocks_of(16385)})}, sms));
    CHECK_FALSE(finding_of_thread_count(add, {run_of(16777217, {blocks_of(264)})}, sms));
    CHECK_FALSE(finding_of_thread_count(add, {run_of(16777217, {blocks_of(16777217, 1)})}, sms));
    // A grid-stride grid sized to the GPU is honest at n = 1 too (32 blocks a multiprocessor at most).
    CHECK_FALSE(finding_of_thread_count(add, {run_of(1, {blocks_of(32 * sms)})}, sms));
    // <<<n, BLKDIM>>>: a block per element. Past the GPU's resident blocks it is wrong, at the first size it shows.
    const auto per_element = finding_of_thread_count(add, {run_of(1000, {blocks_of(1000)}), run_of(1000003, {blocks_of(1000003)})}, sms);
    REQUIRE(per_element);
    CHECK(per_element->kind == Verdict::wrong_launch);
    CHECK(per_element->where == "n=1000003");
    CHECK(per_element->message.find("1024 threads per element") != std::string::npos);
    CHECK(per_element->message.find("at most 1001472 threads") != std::string::npos);
    // Any launch of any call: a second, small kernel does not hide it.
    SizeRun two_calls = run_of(1000003, {blocks_of(978)});
    two_calls.report.calls.push_back(run_of(1000003, {blocks_of(1), blocks_of(1000003)}).report.calls[0]);
    CHECK(finding_of_thread_count(add, {two_calls}, sms));
    // A matrix task counts threads, not blocks per axis: a 1-D kernel over its n * n elements keeps to it.
    const TaskInfo& naive = task_of("matmul", "naive");
    REQUIRE(naive.expect.one_thread_per == std::vector<std::string> {"n", "n"});
    CHECK_FALSE(finding_of_thread_count(naive, {run_of(4096, {kernel("zero", {65536, 1, 1}, {256, 1, 1})})}, sms));
    CHECK_FALSE(finding_of_thread_count(naive, {run_of(4096, {kernel("mm", {128, 128, 1}, {32, 32, 1})})}, sms));
    CHECK(finding_of_thread_count(naive, {run_of(4096, {kernel("mm", {4096, 4096, 1}, {32, 32, 1})})}, sms));
    // Unknown multiprocessors, an untraced call, a task without the rule: nothing said.
    CHECK_FALSE(finding_of_thread_count(add, {run_of(1000003, {blocks_of(1000003)})}, 0));
    CHECK_FALSE(finding_of_thread_count(add, {run_of(1000003, {blocks_of(1000003)}, false)}, sms));
    CHECK_FALSE(finding_of_thread_count(task_of("warpreduce", "sum"), {run_of(1000003, {blocks_of(1000003)})}, sms));
}
