#include "check/grid_evidence.h"

#include "check/evidence.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

// The record's dimensions are signed ints (CUPTI's); a launch has at least one block in each.
std::uint64_t blocks_of(const wire::KernelRecord& k)
{
    std::uint64_t blocks = 1;
    for (const auto d : k.grid) blocks *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
    return blocks;
}

// The launch of the call with the most blocks, when the call was traced.
const wire::KernelRecord* largest_launch(const RunReport& r)
{
    if (r.calls.empty() || !r.calls[0].done || !r.calls[0].trace.traced) return nullptr;
    const wire::CallTrace& t = r.calls[0].trace;
    const std::uint32_t recorded = std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords);
    if (recorded == 0) return nullptr;
    return &*std::max_element(t.kernel, t.kernel + recorded,
                              [](const auto& a, const auto& b) { return blocks_of(a) < blocks_of(b); });
}

}  // namespace

std::optional<Finding> finding_of_grid(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count)
{
    const int per_sm = task.expect.max_blocks_per_sm;
    if (per_sm == 0 || sm_count <= 0) return std::nullopt;
    const std::uint64_t bound = std::uint64_t(per_sm) * std::uint64_t(sm_count);
    for (const SizeRun& run : runs) {
        const wire::KernelRecord* k = largest_launch(run.report);
        if (!k || blocks_of(*k) <= bound) continue;
        return Finding {Verdict::wrong_launch,
                        fmt::format("your code launched {} blocks ({}), {:.0f} per multiprocessor of this GPU ({} of "
                                    "them): the lesson's grid fills the GPU once, at most {} blocks per "
                                    "multiprocessor ({} here), and each thread loops over the array with a stride "
                                    "of the whole grid; a grid that grows with n is not it",
                                    blocks_of(*k), describe_launch(*k), double(blocks_of(*k)) / sm_count, sm_count,
                                    per_sm, bound),
                        "", format_params(run.size.params)};
    }
    return std::nullopt;
}

}  // namespace hpclab
