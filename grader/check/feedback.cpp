#include "check/feedback.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

// A CUDA error that is a memory fault in a kernel, whoever caught it (the
// student's cudaCheckError, or the harness): not a launch configuration.
bool is_memory_fault(const Finding& f)
{
    for (const char* sign : {"IllegalAddress", "illegal memory access", "MisalignedAddress", "misaligned address"})
        if (f.message.find(sign) != std::string::npos) return true;
    return false;
}

}  // namespace

std::string likely_bug(const LabInfo& lab, const TaskVerdict& verdict)
{
    const Verdict v = verdict.verdict;
    const Verdict advice_of = v == Verdict::cuda_error && is_memory_fault(verdict.reason) ? Verdict::gpu_fault : v;
    const auto own = lab.feedback.find(std::string(verdict_name(advice_of)));
    std::string text = own != lab.feedback.end() ? own->second : std::string(verdict_info(advice_of).advice);
    if (verdict_info(v).traits.memcheck_locates) {
        const auto memcheck = std::find_if(verdict.also.begin(), verdict.also.end(),
                                           [](const Finding& f) { return f.kind == Verdict::memcheck; });
        if (memcheck != verdict.also.end())
            text = fmt::format("compute-sanitizer's memcheck found where: {}{}. {}",
                               memcheck->message.substr(0, memcheck->message.find('\n')),
                               memcheck->where.empty() ? "" : " (at " + memcheck->where + ")", text);
    }
    if (verdict_info(v).traits.hint) text += fmt::format(" Stuck? hpclab hint {}", lab.id);
    return text;
}

}  // namespace hpclab
