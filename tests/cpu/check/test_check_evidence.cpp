// The evidence a check turns into findings: CUPTI records against the
// lesson's launch rules, speed ratios against thresholds, compute-sanitizer
// reports, and the sizes the sanitizer runs.
#include "check/evidence.h"
#include "evidence_support.h"
#include "run/sanitizer.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <cstring>

using namespace hpclab;
using namespace hpclab::test;

namespace {

wire::CallTrace trace(std::vector<wire::KernelRecord> ks)
{
    wire::CallTrace t {};
    t.traced = 1;
    t.kernels = static_cast<std::uint32_t>(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i) {
        t.kernel[i] = ks[i];
        if (ks[i].static_shared) t.any_shared = 1;
    }
    return t;
}

}  // namespace

TEST_CASE("trace: no kernel in a call is not on the GPU, and an untraced call says nothing")
{
    const TaskInfo& t = task_of("vecadd3", "add");
    CHECK(kinds(findings_of_trace(t, {{"n", 100}}, trace({}))) == std::vector<Verdict> {Verdict::not_on_gpu});
    wire::CallTrace untraced {};
    CHECK(findings_of_trace(t, {{"n", 100}}, untraced).empty());
    CHECK(findings_of_trace(t, {{"n", 100}}, trace({kernel("_Z3addPKiS0_Pii", {1, 1, 1}, {1024, 1, 1})})).empty());
}

TEST_CASE("trace: vecadd1 asks for n blocks of one thread")
{
    const TaskInfo& t = task_of("vecadd1", "add");
    const Params p {{"n", 1000}};
    CHECK(findings_of_trace(t, p, trace({kernel("add", {1000, 1, 1}, {1, 1, 1})})).empty());
    const auto wrong = findings_of_trace(t, p, trace({kernel("add", {1, 1, 1}, {1024, 1, 1})}));
    REQUIRE(kinds(wrong) == std::vector<Verdict> {Verdict::wrong_launch});
    CHECK(contains(wrong[0].message, "(1000,1,1) blocks of (1,1,1) threads"));
    CHECK(contains(wrong[0].message, "add<<<(1,1,1), (1024,1,1)>>>"));
}

TEST_CASE("trace: vecadd2 too_many must launch nothing")
{
    const TaskInfo& t = task_of("vecadd2", "too_many");
    CHECK(findings_of_trace(t, {{"n", 2000}}, trace({})).empty());
    CHECK(kinds(findings_of_trace(t, {{"n", 2000}}, trace({kernel("add", {1, 1, 1}, {2000, 1, 1})}))) ==
          std::vector<Verdict> {Verdict::wrong_launch});
}

TEST_CASE("trace: a shared-memory task without shared memory, a 2-D lesson with a 1-D grid")
{
    CHECK(kinds(findings_of_trace(task_of("stencil", "shared"), {{"n", 100}},
                                  trace({kernel("k", {1, 1, 1}, {1024, 1, 1})}))) ==
          std::vector<Verdict> {Verdict::no_shared_memory});
    CHECK(findings_of_trace(task_of("stencil", "shared"), {{"n", 100}},
                            trace({kernel("k", {1, 1, 1}, {1024, 1, 1}, 4120)}))
              .empty());
    const Params img {{"width", 640}, {"height", 480}};
    CHECK(kinds(findings_of_trace(task_of("rotation", "naive"), img, trace({kernel("k", {300, 1, 1}, {1024, 1, 1})}))) ==
          std::vector<Verdict> {Verdict::wrong_launch});
    CHECK(findings_of_trace(task_of("rotation", "naive"), img, trace({kernel("k", {20, 15, 1}, {32, 32, 1})})).empty());
}

TEST_CASE("trace: shared memory in name only: less than the lesson's cache of the launched block")
{
    const TaskInfo& stencil = task_of("stencil", "shared");
    const Params p {{"n", 100}};
    // A token __shared__ int beside a kernel that reads global memory.
    const auto token = findings_of_trace(stencil, p, trace({kernel("_Z9stencil1dPKiPii", {1, 1, 1}, {1024, 1, 1}, 4)}));
    REQUIRE(kinds(token) == std::vector<Verdict> {Verdict::no_shared_memory});
    CHECK(contains(token[0].message, "a block of 1024 threads needs at least 4120 B (4 B per thread and 24 B of halo)"));
    CHECK(contains(token[0].message, "stencil1d has 4 B"));
    // The cache of the block actually launched: blocks of 256 need 1048 B.
    CHECK(findings_of_trace(stencil, p, trace({kernel("k", {1, 1, 1}, {256, 1, 1}, 1048)})).empty());
    CHECK(kinds(findings_of_trace(stencil, p, trace({kernel("k", {1, 1, 1}, {256, 1, 1}, 1044)}))) ==
          std::vector<Verdict> {Verdict::no_shared_memory});
    // One kernel of the call holding the cache is enough.
    CHECK(findings_of_trace(stencil, p, trace({kernel("a", {1, 1, 1}, {1024, 1, 1}, 4), kernel("b", {1, 1, 1}, {1024, 1, 1}, 4120)}))
              .empty());
    // matmul's tiled product keeps two tiles, one element of each per thread.
    const TaskInfo& tiled = task_of("matmul", "tiled");
    CHECK(findings_of_trace(tiled, {{"n", 100}}, trace({kernel("k", {4, 4, 1}, {32, 32, 1}, 8192)})).empty());
    CHECK(kinds(findings_of_trace(tiled, {{"n", 100}}, trace({kernel("k", {4, 4, 1}, {32, 32, 1}, 4096)}))) ==
          std::vector<Verdict> {Verdict::no_shared_memory});
    // A lab that sets no size for its cache: any shared memory will do.
    CHECK(findings_of_trace(task_of("reduction", "tree"), {{"n", 100}}, trace({kernel("k", {1, 1, 1}, {1024, 1, 1}, 4)}))
              .empty());
}

namespace {

// A ledger the harness would write: `left` of `made` of one kind still held.
wire::ResourceLedger ledger_with(wire::ResourceKind kind, std::uint32_t made, std::uint32_t left, std::uint64_t bytes,
                                 const char* by)
{
    wire::ResourceLedger l {};
    l.traced = 1;
    const int k = static_cast<int>(kind);
    l.made[k] = made;
    l.left[k] = left;
    l.bytes_left[k] = bytes;
    wire::set_name(l.made_by[k], sizeof l.made_by[k], by);
    return l;
}

// The trace of a call that would pass the task's own launch rules: a kernel
// of the shape, shared memory and warps the task asks for (or none at all
// where none may run), so that only the ledger can fail it.
wire::CallTrace passing_trace(const TaskInfo& task)
{
    if (task.expect.asks(LessonFact::no_kernel)) return trace({});
    wire::CallTrace t = trace({kernel("k", {1, 1, 1}, {1, 1, 1}, 1 << 16)});
    return t;
}

}  // namespace

TEST_CASE("invariant releases: every task of every lab, whatever its lesson, and every kind a call can make")
{
    // No lab.json asks for it and none opts out: a new lab gets it as data.
    for (const LabInfo& lab : catalog().labs())
        for (const TaskInfo& task : lab.tasks) {
            CAPTURE(lab.id);
            CAPTURE(task.id);
            REQUIRE(task.judged_by(Invariant::releases));
            for (int k = 0; k < wire::kResourceKinds; ++k) {
                wire::CallTrace t = passing_trace(task);
                t.resources = ledger_with(static_cast<wire::ResourceKind>(k), 2, 1, 64, "cudaSomething");
                const auto found = findings_of_trace(task, task.sizes.front().params, t);
                const bool released = std::none_of(found.begin(), found.end(),
                                                   [](const Finding& f) { return f.kind == Verdict::not_released; });
                CHECK_FALSE(released);
            }
        }
}

TEST_CASE("invariant releases: the finding names the kind, how many of how many, the bytes and the maker")
{
    const TaskInfo& add = task_of("vecadd0", "add");
    wire::CallTrace t = trace({kernel("add", {1, 1, 1}, {1, 1, 1})});
    t.resources = ledger_with(wire::ResourceKind::device_memory, 3, 3, 12, "cudaMalloc");
    const auto leak = findings_of_trace(add, {}, t);
    REQUIRE(kinds(leak) == std::vector<Verdict> {Verdict::not_released});
    CHECK(contains(leak[0].message, "3 of the 3 device memory allocations it made, 12 bytes (made by cudaMalloc)"));
    CHECK(contains(leak[0].message, "cudaFree"));
    // Two kinds at once: both said.
    const int stream = static_cast<int>(wire::ResourceKind::stream);
    t.resources.made[stream] = 4;
    t.resources.left[stream] = 4;
    wire::set_name(t.resources.made_by[stream], wire::kApiNameLen, "cudaStreamCreate");
    const auto both = findings_of_trace(add, {}, t);
    REQUIRE(kinds(both) == std::vector<Verdict> {Verdict::not_released});
    CHECK(contains(both[0].message, "4 of the 4 streams it made (made by cudaStreamCreate), never released with "
                                    "cudaStreamDestroy"));
    // Everything released (made, none left), or no ledger kept: nothing to say.
    t.resources = ledger_with(wire::ResourceKind::event, 2, 0, 0, "");
    CHECK(findings_of_trace(add, {}, t).empty());
    t.resources = ledger_with(wire::ResourceKind::event, 2, 2, 0, "cudaEventCreate");
    t.resources.traced = 0;
    CHECK(findings_of_trace(add, {}, t).empty());
}

TEST_CASE("invariant releases: a refusal that launches nothing still releases what it made")
{
    const TaskInfo& too_many = task_of("vecadd2", "too_many");
    wire::CallTrace t = trace({});
    t.resources = ledger_with(wire::ResourceKind::device_memory, 3, 3, 24000, "cudaMalloc");
    CHECK(kinds(findings_of_trace(too_many, {{"n", 2000}}, t)) == std::vector<Verdict> {Verdict::not_released});
}

TEST_CASE("invariant releases: a task opted out in lab.json is not judged by it, and says why")
{
    TaskInfo task = task_of("vecadd0", "add");
    task.opted_out[Invariant::releases] = "its buffers are the lab's own, kept for the next call";
    wire::CallTrace t = trace({kernel("add", {1, 1, 1}, {1, 1, 1})});
    t.resources = ledger_with(wire::ResourceKind::device_memory, 1, 1, 4, "cudaMalloc");
    CHECK(findings_of_trace(task, {}, t).empty());
}

TEST_CASE("invariant releases: what a global object made before main and still held is judged like a call's")
{
    TaskInfo task = task_of("vecadd0", "add");
    RunReport r;
    r.status = RunStatus::completed;
    CallReport call;
    call.done = true;
    call.trace = passing_trace(task);
    r.calls.push_back(call);
    const SizeCase size {{{"n", 1000}}, "", false};
    CHECK(findings_of_run(task, size, r).empty());
    r.before_main = ledger_with(wire::ResourceKind::device_memory, 1, 1, 4096, "cudaMalloc");
    const auto held = findings_of_run(task, size, r);
    REQUIRE(kinds(held) == std::vector<Verdict> {Verdict::not_released});
    CHECK(contains(held[0].message, "before main"));
    CHECK(contains(held[0].message, "1 of the 1 device memory allocation it made, 4096 bytes (made by cudaMalloc)"));
    // Made before main and released before main, or not watched: nothing to say.
    r.before_main = ledger_with(wire::ResourceKind::stream, 1, 0, 0, "");
    CHECK(findings_of_run(task, size, r).empty());
    r.before_main = ledger_with(wire::ResourceKind::stream, 1, 1, 0, "cudaStreamCreate");
    r.before_main.traced = 0;
    CHECK(findings_of_run(task, size, r).empty());
    // A task opted out of releases is not judged by it here either.
    r.before_main.traced = 1;
    CHECK_FALSE(findings_of_run(task, size, r).empty());
    task.opted_out[Invariant::releases] = "its buffers are the lab's own";
    CHECK(findings_of_run(task, size, r).empty());
}

TEST_CASE("trace: symbols' partial sums live in a __device__ array: no cudaMalloc in the call")
{
    const TaskInfo& partial = task_of("symbols", "partial");
    wire::CallTrace t = trace({kernel("sum_kernel", {256, 1, 1}, {512, 1, 1}, 2048)});
    t.any_shared = 1;
    CHECK(findings_of_trace(partial, {{"n", 200003}}, t).empty());
    // Allocated and freed: not a leak, still not the lesson.
    t.allocations = 1;
    t.allocated_bytes = 1024;
    const auto malloced = findings_of_trace(partial, {{"n", 200003}}, t);
    REQUIRE(kinds(malloced) == std::vector<Verdict> {Verdict::wrong_launch});
    CHECK(contains(malloced[0].message, "1 cudaMalloc, 1024 bytes"));
    CHECK(contains(malloced[0].message, "__device__ variables"));
    // A task without the rule may allocate (reduction's partial sums, freed).
    CHECK(findings_of_trace(task_of("reduction", "naive"), {{"n", 200003}}, t).empty());
}

TEST_CASE("trace: the streams lab's copies, pinned and beside another stream's kernels")
{
    wire::CallTrace t = trace({kernel("twice_plus_one", {16, 1, 1}, {1024, 1, 1})});
    t.copies = 2;
    t.pinned_copies = 2;
    t.streams = 1;
    const TaskInfo& pinned = task_of("streams", "pinned");
    CHECK(findings_of_trace(pinned, {{"n", 16384}}, t).empty());
    // One copy from malloc()ed memory is enough: the host vectors are not pinned.
    t.pinned_copies = 1;
    t.pageable_copies = 1;
    const auto pageable = findings_of_trace(pinned, {{"n", 16384}}, t);
    REQUIRE(kinds(pageable) == std::vector<Verdict> {Verdict::slow_copies});
    CHECK(contains(pageable[0].message, "1 of the call's 2 copies"));
    CHECK(contains(pageable[0].message, "pageable"));
    // A lab that asks nothing of its copies says nothing of them.
    t.kernel[0] = kernel("add", {1, 1, 1}, {1, 1, 1});
    CHECK(findings_of_trace(task_of("vecadd0", "add"), {}, t).empty());

    // overlap: at 2^25 elements, some copy must run beside another stream's kernel.
    const TaskInfo& overlap = task_of("streams", "overlap");
    t.kernel[0] = kernel("twice_plus_one", {2048, 1, 1}, {1024, 1, 1});
    t.kernels = 8;
    t.copies = 16;
    t.pinned_copies = 16;
    t.pageable_copies = 0;
    t.streams = 1;
    const auto serial = findings_of_trace(overlap, {{"n", 33554432}}, t);
    REQUIRE(kinds(serial) == std::vector<Verdict> {Verdict::slow_copies});
    CHECK(contains(serial[0].message, "none of the call's 16 copies"));
    CHECK(contains(serial[0].message, "1 stream(s)"));
    // Below the size where chunks are long enough, one after the other is no fault: at 2^22 the
    // copies take 0.36 ms in all, which a traced host on a busy machine can take to queue them.
    CHECK(findings_of_trace(overlap, {{"n", 1000003}}, t).empty());
    CHECK(findings_of_trace(overlap, {{"n", 4194304}}, t).empty());
    t.streams = 8;
    t.overlapped_copies = 5;
    CHECK(findings_of_trace(overlap, {{"n", 33554432}}, t).empty());
    // Pageable memory fails overlap too, at every size.
    t.pageable_copies = 16;
    CHECK(kinds(findings_of_trace(overlap, {{"n", 7}}, t)) == std::vector<Verdict> {Verdict::slow_copies});
}

TEST_CASE("evidence: a pipeline seen without overlap is run again with the GPU alone, pageable copies are not")
{
    // The streams solution's overlap at 2^24, selftested beside the README's other tests on an
    // H200 (call 9b), had no copy in beside a kernel: other contexts' time slices can do that.
    const TaskInfo& overlap = task_of("streams", "overlap");
    RunReport r;
    r.status = RunStatus::completed;
    r.calls.assign(2, CallReport {.done = true});
    wire::CallTrace& t = r.calls[0].trace;
    t = trace({kernel("twice_plus_one", {2048, 1, 1}, {1024, 1, 1})});
    t.kernels = 8;
    t.copies = 16;
    t.pinned_copies = 16;
    t.streams = 8;
    CHECK(bent_by_load(overlap, {{"n", 33554432}}, r));
    // Not where the lesson asks no overlap (a small size), nor once a copy overlapped.
    CHECK_FALSE(bent_by_load(overlap, {{"n", 1000003}}, r));
    t.overlapped_copies = 1;
    CHECK_FALSE(bent_by_load(overlap, {{"n", 33554432}}, r));
    // Pageable host memory is a fact of the program, whatever else ran: judged at once.
    t.overlapped_copies = 0;
    t.pageable_copies = 16;
    t.pinned_copies = 0;
    CHECK_FALSE(bent_by_load(overlap, {{"n", 33554432}}, r));
    // No trace, or no call done: nothing to run again for.
    t.pageable_copies = 0;
    t.pinned_copies = 16;
    r.calls[0].done = false;
    CHECK_FALSE(bent_by_load(overlap, {{"n", 33554432}}, r));
    r.calls[0].done = true;
    t.traced = 0;
    CHECK_FALSE(bent_by_load(overlap, {{"n", 33554432}}, r));
    // A lab that asks nothing of its copies has nothing bent.
    t.traced = 1;
    CHECK_FALSE(bent_by_load(task_of("vecadd3", "add"), {{"n", 33554432}}, r));
}

TEST_CASE("timing: pass, too slow, inconclusive, unreliable, suspicious")
{
    Timing t;
    t.baseline = "reference solution";
    t.threshold = 0.8;
    t.ratio = 1.0;
    t.ratio_low = 0.95;
    t.ratio_high = 1.05;
    t.student_ms = {1.0};
    CHECK(finding_of_timing(t).kind == Verdict::pass);
    t.ratio_low = 0.3, t.ratio = 0.35, t.ratio_high = 0.4;
    CHECK(finding_of_timing(t).kind == Verdict::too_slow);
    t.unreliable = true;
    CHECK(finding_of_timing(t).kind == Verdict::inconclusive);
    t.unreliable = false;
    t.ratio_low = 0.7, t.ratio = 0.8, t.ratio_high = 0.9;  // straddles 0.8
    CHECK(finding_of_timing(t).kind == Verdict::inconclusive);
    t.ratio_low = 2, t.ratio_high = 3;
    t.floor_ms = 2.0;  // the bytes need 2 ms at the copy bandwidth; 1 ms is not possible
    CHECK(finding_of_timing(t).kind == Verdict::suspicious);
    // Judged on the calls with nothing taken out: a harness cost measured under load can take an
    // honest call below the floor (1 ms left of 2.5 ms seen); the whole call is the sound bound.
    t.student_whole_ms = {2.5};
    CHECK(finding_of_timing(t).kind == Verdict::pass);
    t.student_whole_ms = {1.5};
    CHECK(finding_of_timing(t).kind == Verdict::suspicious);
}

TEST_CASE("timing: the program's own times below the copy floor are tampering, merely shorter than hpclab's clock nothing")
{
    Timing t;
    t.size = {{"n", 16777216}};
    t.floor_ms = 0.05;  // 192 MiB at about 4 TB/s
    t.student_ms = {2.1, 2.2, 2.0};
    t.student_claimed_ms = {0.001, 0.001, 0.001};  // tests/hostile/vecadd3/overwrite_times
    const auto lie = finding_of_claimed_times(t);
    REQUIRE(lie);
    CHECK(lie->kind == Verdict::tampering);
    CHECK(contains(lie->message, "0.0010 ms per call"));
    CHECK(contains(lie->message, "hpclab's own clock saw 2.100 ms"));
    // An honest program on a busy machine: its events far below hpclab's
    // clock, at or above the floor.
    t.student_claimed_ms = {0.06, 0.07, 0.06};
    CHECK_FALSE(finding_of_claimed_times(t));
    // No floor measured (no bytes, or no copy bandwidth): no claim accused.
    t.student_claimed_ms = {0.001};
    t.floor_ms = 0;
    CHECK_FALSE(finding_of_claimed_times(t));
}

TEST_CASE("sanitizer: memcheck's report names the student's line")
{
    const std::string out =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at add(const int *, const int *, int *, int)+0x80 in /course/labs/vecadd3/vecadd3.cu:30\n"
        "=========     by thread (100,0,0) in block (0,0,0)\n"
        "=========     Address 0x7f00 is out of bounds\n"
        "=========\n"
        "@@hpclab-returned-1234@@\n"
        "========= ERROR SUMMARY: 1 error\n";
    const SanitizerReport r = parse_sanitizer_output(out, "/course", "vecadd3.cu");
    CHECK(r.errors == 1);
    CHECK(r.location == "labs/vecadd3/vecadd3.cu:30");
    REQUIRE(r.reports.size() == 1);
    CHECK(contains(r.reports[0], "Invalid __global__ write of size 4 bytes"));
    CHECK(contains(r.reports[0], "by thread (100,0,0) in block (0,0,0)"));
    CHECK_FALSE(contains(r.reports[0], "/course/"));
}

TEST_CASE("sanitizer: racecheck's hazards, and a clean run")
{
    const std::string race =
        "========= COMPUTE-SANITIZER\n"
        "========= Error: Race reported between Write access at k(const int *, int *, int)+0x1a0 in "
        "/c/labs/stencil/stencil.cu:45\n"
        "=========     and Read access at k(const int *, int *, int)+0x2b0 in /c/labs/stencil/stencil.cu:52 [8 hazards]\n"
        "=========\n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    const SanitizerReport r = parse_sanitizer_output(race, "/c", "stencil.cu");
    CHECK(r.errors == 1);
    CHECK(r.location == "labs/stencil/stencil.cu:45");
    CHECK(contains(r.reports.at(0), "Race reported between Write access"));
    CHECK(contains(r.reports.at(0), "and Read access"));
    const SanitizerReport clean =
        parse_sanitizer_output("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n", "/c", "x.cu");
    CHECK(clean.errors == 0);
    CHECK(clean.reports.empty());
}

TEST_CASE("sanitizer: small sizes, one of them ragged")
{
    for (const auto& lab : catalog().labs())
        for (const auto& task : lab.tasks) {
            if (lab.kind == LabKind::program) continue;  // its program runs once, under no sanitizer
            const auto sizes = sanitizer_sizes(spec_of(lab.id, task.id), task, 2);
            CAPTURE(lab.id);
            CAPTURE(task.id);
            REQUIRE_FALSE(sizes.empty());
            CHECK(sizes.size() <= 2);
            for (const auto& s : sizes) CHECK_FALSE(s.big);
            if (!lab.params.empty() && task.id != "too_many") {
                bool any_ragged = false;
                for (const auto& s : sizes)
                    for (const auto& [k, v] : s.params) any_ragged = any_ragged || (v > 1 && v % 32 != 0);
                CHECK(any_ragged);
            }
        }
}

TEST_CASE("launch description demangles the kernel's name")
{
    CHECK(demangle("_Z3addPKiS0_Pii") == "add");
    CHECK(demangle("not_mangled") == "not_mangled");
    CHECK(describe_launch(kernel("_Z3addPKiS0_Pii", {2, 1, 1}, {1024, 1, 1})) ==
          "add<<<(2,1,1), (1024,1,1)>>> 0.001 ms, no shared memory");
}

TEST_CASE("sanitizer: racecheck's hazard report mode")
{
    const std::string out =
        "========= COMPUTE-SANITIZER\n"
        "========= ERROR: Potential RAW hazard detected at __shared__ 0x10 in block (0,0,0) :\n"
        "=========     Write Thread (3,0,0) at 0x1a0 in /c/labs/stencil/stencil.cu:45:stencil1d_kernel(const int *, "
        "int *, int)\n"
        "=========     Read Thread (40,0,0) at 0x2b0 in /c/labs/stencil/stencil.cu:52:stencil1d_kernel(const int *, "
        "int *, int)\n"
        "=========     Current Value : 0\n"
        "=========\n"
        "========= RACECHECK SUMMARY: 364 hazards displayed (364 errors, 0 warnings)\n";
    const SanitizerReport r = parse_sanitizer_output(out, "/c", "stencil.cu");
    CHECK(r.errors == 364);
    CHECK(r.location == "labs/stencil/stencil.cu:45");
    REQUIRE_FALSE(r.reports.empty());
    CHECK(contains(r.reports[0], "Potential RAW hazard"));
    CHECK(contains(r.reports[0], "Read Thread (40,0,0)"));
}

TEST_CASE("invariant device_finishes: a call copies back no more than its outputs on the host")
{
    wire::CallTrace t = trace({kernel("add", {1, 1, 1}, {1024, 1, 1})});
    // vecadd3's outputs are on the device: reading back the inputs to add them on the host is found ...
    const TaskInfo& add = task_of("vecadd3", "add");
    t.d2h_bytes = 2 * 1000 * sizeof(int);
    const auto read_back = finding_of_copies_back(add, 0, t, "n = 1000");
    REQUIRE(read_back);
    CHECK(read_back->kind == Verdict::not_on_gpu);
    CHECK(contains(read_back->message, "copied 8000 bytes from the device back to the host"));
    CHECK(contains(read_back->message, "outputs on the host are 0 bytes"));
    // ... a flag or a count read back is not, up to the spare ...
    t.d2h_bytes = kCopyBackSpareBytes;
    CHECK_FALSE(finding_of_copies_back(add, 0, t, ""));
    t.d2h_bytes = kCopyBackSpareBytes + 1;
    CHECK(finding_of_copies_back(add, 0, t, ""));
    // ... and an output on the host may come back whole (vecadd1's c), not more.
    t.d2h_bytes = 4000;
    CHECK_FALSE(finding_of_copies_back(task_of("vecadd1", "add"), 4000, t, ""));
    t.d2h_bytes = 12000;
    CHECK(finding_of_copies_back(task_of("vecadd1", "add"), 4000, t, ""));
    // Reduction's atomic task keeps its sum on the device: the blocks' sums copied back are the host finishing it.
    t.d2h_bytes = 977 * sizeof(int);
    CHECK(finding_of_copies_back(task_of("reduction", "atomic"), 0, t, ""));
    // The lessons that finish on the host opt out, in lab.json, with their reason.
    const TaskInfo& naive = task_of("reduction", "naive");
    REQUIRE_FALSE(naive.judged_by(Invariant::device_finishes));
    CHECK(contains(naive.opted_out.at(Invariant::device_finishes), "host adds up"));
    CHECK_FALSE(finding_of_copies_back(naive, 4, t, ""));
    CHECK_FALSE(task_of("symbols", "partial").judged_by(Invariant::device_finishes));
    // An untraced call says nothing.
    wire::CallTrace untraced {};
    untraced.d2h_bytes = 1u << 20;
    CHECK_FALSE(finding_of_copies_back(add, 0, untraced, ""));
}

TEST_CASE("invariant own_code: a library's kernel in the program fails it, unless the task opts out")
{
    ProgramFacts facts;
    facts.kernels_known = true;
    facts.kernels = {"_Z3addPKiS0_Pii"};
    facts.origins_known = true;
    facts.foreign_kernels = {"_ZN3cub6detail11EmptyKernelIvEEvv"};
    TaskInfo task = task_of("vecadd3", "add");
    const auto found = findings_of_program(task, facts);
    REQUIRE(kinds(found) == std::vector<Verdict> {Verdict::library_kernel});
    CHECK(contains(found[0].message, "cub::detail::EmptyKernel"));
    task.opted_out[Invariant::own_code] = "this task asks for CUB's DeviceReduce";
    CHECK(findings_of_program(task, facts).empty());
    facts.foreign_kernels.clear();
    CHECK(findings_of_program(task_of("vecadd3", "add"), facts).empty());
}
