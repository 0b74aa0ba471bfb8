#include "check/feedback.h"

#include <fmt/format.h>

namespace hpclab {

namespace {

std::string general(Verdict v)
{
    switch (v) {
    case Verdict::grader_error: return "Not your fault: hpclab could not judge this. Tell your instructor.";
    case Verdict::compile_error:
        return "Fix the first error the compiler reports (file and line above): later errors often follow from it.";
    case Verdict::time_limit:
        return "An endless loop, or a kernel that never ends: a loop whose condition never changes, or a "
               "__syncthreads() that not every thread of the block reaches.";
    case Verdict::crash:
        return "The program died on the host: a device pointer dereferenced on the host, a host buffer too "
               "small, or an exit() in the lab's code.";
    case Verdict::cuda_error:
        return "A CUDA call failed and your own cudaSafeCall/cudaCheckError stopped the program: its message "
               "says which call and which error (an invalid launch configuration is the usual one).";
    case Verdict::gpu_fault:
        return "A kernel accessed memory it must not: an index far past an array, or a host pointer used on the "
               "device.";
    case Verdict::output_limit: return "Print less: a printf in a kernel runs once per thread.";
    case Verdict::no_output:
        return "Some outputs were never written: does the grid cover every element, and does every thread in "
               "range store its result?";
    case Verdict::input_modified: return "A kernel writes into an input: only the output may be written.";
    case Verdict::out_of_bounds:
        return "Threads past the end of the data wrote anyway: the last block has threads past n; guard the store "
               "with a bound check.";
    case Verdict::wrong_answer:
        return "Compare your index arithmetic with the lecture's at the size named above (hpclab run with that "
               "size replays it).";
    case Verdict::not_on_gpu: return "The result must be computed by a kernel on the GPU, not on the host.";
    case Verdict::wrong_launch:
        return "This lab is about its launch configuration: see the TODO step that launches the kernel.";
    case Verdict::no_shared_memory:
        return "Declare a __shared__ array, have the block's threads load their data into it, __syncthreads(), "
               "then compute from it.";
    case Verdict::memory_leak: return "Every cudaMalloc of the function needs its cudaFree before it returns.";
    case Verdict::memcheck:
        return "The line named above accesses memory outside its array: check the bounds of that access in the "
               "last (partial) block.";
    case Verdict::race:
        return "Threads of a block read shared memory that others write, with no __syncthreads() between: a "
               "barrier after the loads, and before a loop overwrites the shared array.";
    case Verdict::too_slow:
        return "Right, but slower than the lesson's technique allows: see the walkthrough's part on why the "
               "solution is fast.";
    case Verdict::inconclusive: return "Run hpclab check again, with no other program using the GPU.";
    case Verdict::suspicious: return "A person will look at this result.";
    default: return "";
    }
}

}  // namespace

std::string likely_bug(const LabInfo& lab, Verdict v, const Finding&)
{
    const auto it = lab.feedback.find(std::string(verdict_name(v)));
    std::string text = it != lab.feedback.end() ? it->second : general(v);
    if (v != Verdict::grader_error && v != Verdict::inconclusive && v != Verdict::suspicious)
        text += fmt::format(" Stuck? hpclab hint {}", lab.id);
    return text;
}

}  // namespace hpclab
