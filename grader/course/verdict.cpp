#include "course/verdict.h"

#include <array>
#include <utility>

namespace hpclab {

namespace {

using V = Verdict;
using C = VerdictClass;

// The traits' combinations the table uses.
constexpr VerdictTraits kPlain {};                                         // the student's to fix
constexpr VerdictTraits kSymptom {.sanitizer_explains = true};             // wrote wrong, or not at all
constexpr VerdictTraits kDied {.memcheck_locates = true};                  // a crash, a CUDA error
constexpr VerdictTraits kHeld {.held = true};                              // a person looks, the student may fix
constexpr VerdictTraits kToAPerson {.held = true, .hint = false};          // a person's question, not a bug
constexpr VerdictTraits kNotJudged {.held = true, .final = false, .hint = false};  // hpclab's failure, nothing run
constexpr VerdictTraits kPassed {.hint = false};

constexpr std::array kTable = {
    VerdictInfo {V::grader_error, "grader_error", "grader error", C::grader, kGraderError, kNotJudged,
                 "Not your fault: hpclab could not judge this. Tell your instructor."},
    VerdictInfo {V::compile_error, "compile_error", "compile error", C::build, kFail, kPlain,
                 "Fix the first error the compiler reports (file and line above): later errors often follow from it."},
    VerdictInfo {V::tampering, "tampering", "claims that do not hold", C::integrity, kFail, kToAPerson,
                 "What the program reported (calls finished, kernels run, times) contradicts what hpclab saw "
                 "itself. A person will look at this submission."},
    VerdictInfo {V::time_limit, "time_limit", "time limit", C::run, kFail, kPlain,
                 "An endless loop, or a kernel that never ends: a loop whose condition never changes, or a "
                 "__syncthreads() that not every thread of the block reaches."},
    VerdictInfo {V::resource_limit, "resource_limit", "resource limit", C::run, kFail, kHeld,
                 "The program went past a limit of the sandbox (host memory, processes, file size, /tmp): a "
                 "host allocation far larger than the data, a loop that forks or writes without end."},
    VerdictInfo {V::crash, "crash", "crash", C::run, kFail, kDied,
                 "The program died on the host: a device pointer dereferenced on the host, a host buffer too "
                 "small, or an exit() in the lab's code."},
    VerdictInfo {V::cuda_error, "cuda_error", "CUDA error", C::run, kFail, kDied,
                 "A CUDA call failed and your own cudaSafeCall/cudaCheckError stopped the program: its message "
                 "says which call and which error (an invalid launch configuration is the usual one)."},
    VerdictInfo {V::gpu_fault, "gpu_fault", "GPU fault", C::run, kFail, kDied,
                 "A kernel accessed memory it must not: an index far past an array, or a host pointer used on the "
                 "device."},
    VerdictInfo {V::output_limit, "output_limit", "too much output", C::run, kFail, kPlain,
                 "Print less: a printf in a kernel runs once per thread."},
    VerdictInfo {V::no_output, "no_output", "no output written", C::result, kFail, kSymptom,
                 "Some outputs were never written: does the grid cover every element, and does every thread in "
                 "range store its result?"},
    VerdictInfo {V::input_modified, "input_modified", "input modified", C::result, kFail, kPlain,
                 "A kernel writes into an input: only the output may be written."},
    VerdictInfo {V::out_of_bounds, "out_of_bounds", "write out of bounds", C::result, kFail, kSymptom,
                 "Threads past the end of the data wrote anyway: the last block has threads past n; guard the store "
                 "with a bound check."},
    VerdictInfo {V::wrong_answer, "wrong_answer", "wrong answer", C::result, kFail, kSymptom,
                 "Compare your index arithmetic with the lecture's at the size named above (hpclab run with that "
                 "size replays it)."},
    VerdictInfo {V::not_on_gpu, "not_on_gpu", "not computed on the GPU", C::lesson, kFail, kPlain,
                 "The result must be computed by a kernel on the GPU, not on the host."},
    VerdictInfo {V::library_kernel, "library_kernel", "a library does the work", C::lesson, kFail, kPlain,
                 "This lab asks for your own kernel: a library call (CUB, Thrust, cuBLAS) may not do the task's "
                 "work."},
    VerdictInfo {V::wrong_launch, "wrong_launch", "wrong launch shape", C::lesson, kFail, kPlain,
                 "This lab is about its launch configuration: see the TODO step that launches the kernel."},
    VerdictInfo {V::no_shared_memory, "no_shared_memory", "shared memory not used", C::lesson, kFail, kPlain,
                 "Declare a __shared__ array, have the block's threads load their data into it, __syncthreads(), "
                 "then compute from it."},
    VerdictInfo {V::no_warp_shuffle, "no_warp_shuffle", "no warp shuffle", C::lesson, kFail, kPlain,
                 "Add up each warp's values in registers: v += __shfl_down_sync(0xffffffff, v, offset) for offset "
                 "16, 8, 4, 2, 1, and lane 0 holds the warp's total."},
    VerdictInfo {V::not_released, "not_released", "not released", C::lesson, kFail, kPlain,
                 "Everything your function makes it releases before it returns, on every path (an early return "
                 "too): cudaFree for cudaMalloc, cudaFreeHost for cudaMallocHost, cudaStreamDestroy, "
                 "cudaEventDestroy, cudaGraphDestroy and cudaGraphExecDestroy."},
    VerdictInfo {V::slow_copies, "slow_copies", "copies not pinned or not overlapped", C::lesson, kFail, kPlain,
                 "Copies run at full speed only from pinned host memory (cudaHostAlloc), and beside other work "
                 "only when each chunk's cudaMemcpyAsync and kernel go to a stream of its own (never the default "
                 "stream), with no wait between the chunks."},
    VerdictInfo {V::memcheck, "memcheck", "invalid memory access (memcheck)", C::sanitizer, kFail, kPlain,
                 "The line named above accesses memory outside its array: check the bounds of that access in the "
                 "last (partial) block."},
    VerdictInfo {V::race, "race", "data race (racecheck)", C::sanitizer, kFail, kPlain,
                 "Threads of a block read shared memory that others write, with no __syncthreads() between: a "
                 "barrier after the loads, and before a loop overwrites the shared array."},
    VerdictInfo {V::wrong_measurement, "wrong_measurement", "wrong measured answer", C::lesson, kFail, kPlain,
                 "Profile the program as it was given (hpclab check <lab> --file <the lab's given copy> --profile) "
                 "and copy the numbers it shows into your file's ANSWERS block."},
    VerdictInfo {V::too_slow, "too_slow", "too slow", C::speed, kFail, kPlain,
                 "Right, but slower than the lesson's technique allows: see the walkthrough's part on why the "
                 "solution is fast."},
    VerdictInfo {V::inconclusive, "inconclusive", "inconclusive: rerun", C::speed, kFail, kToAPerson,
                 "Run hpclab check again, with no other program using the GPU."},
    VerdictInfo {V::suspicious, "suspicious", "suspiciously fast", C::speed, kFail, kToAPerson,
                 "A person will look at this result."},
    VerdictInfo {V::pass, "pass", "pass", C::none, kPass, kPassed, ""},
    VerdictInfo {V::not_run, "not_run", "not run (no GPU)", C::none, kSkipped, kNotJudged, ""},
};

constexpr bool table_in_enum_order()
{
    for (std::size_t i = 0; i < kTable.size(); ++i)
        if (static_cast<std::size_t>(kTable[i].verdict) != i) return false;
    return true;
}
static_assert(table_in_enum_order(), "kTable lists the verdicts in the order of enum Verdict");
static_assert(kTable.size() == static_cast<std::size_t>(V::not_run) + 1, "every verdict has its row");

constexpr std::array<std::string_view, 9> kClassNames = {"grader", "integrity", "build", "run",  "result",
                                                         "lesson", "sanitizer", "speed", "none"};

}  // namespace

std::span<const VerdictInfo> verdict_table() { return kTable; }
const VerdictInfo& verdict_info(Verdict v) { return kTable[static_cast<std::size_t>(v)]; }
std::string_view verdict_name(Verdict v) { return verdict_info(v).name; }
std::string_view verdict_title(Verdict v) { return verdict_info(v).title; }
std::string_view class_name(VerdictClass c) { return kClassNames[static_cast<std::size_t>(c)]; }
int precedence(Verdict v) { return static_cast<int>(v); }
bool is_failure(Verdict v) { return v != Verdict::pass && v != Verdict::not_run; }
bool held_for_a_person(Verdict v) { return verdict_info(v).traits.held; }
bool is_final(Verdict v) { return verdict_info(v).traits.final; }

// Names the table had before, which records and course configs written then
// still use: read as the verdict that took their place.
constexpr std::array<std::pair<std::string_view, Verdict>, 1> kFormerNames = {
    std::pair {std::string_view("memory_leak"), V::not_released},  // widened to every kind a call makes
};

std::optional<Verdict> verdict_from_name(std::string_view name)
{
    for (const auto& row : kTable)
        if (row.name == name) return row.verdict;
    for (const auto& [former, verdict] : kFormerNames)
        if (former == name) return verdict;
    return std::nullopt;
}

}  // namespace hpclab
