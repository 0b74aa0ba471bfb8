#include "check/grid_evidence.h"

#include "check/evidence.h"
#include "check/lesson_facts.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

// The first launch of any traced call of `runs` that `judge` (the size's
// params, the launch) finds a reason against: its verdict and why, at its size.
template <class Judge>
std::optional<Finding> first_wrong_launch(const std::vector<SizeRun>& runs, Judge judge)
{
    for (const SizeRun& run : runs)
        for (const CallReport& call : run.report.calls) {
            if (!call.done || !call.trace.traced) continue;
            const std::uint32_t recorded = std::min<std::uint32_t>(call.trace.kernels, wire::kMaxKernelRecords);
            for (std::uint32_t i = 0; i < recorded; ++i)
                if (std::optional<MissingFact> m = judge(run.size.params, call.trace.kernel[i]))
                    return Finding {m->verdict, std::move(m->why), "", format_params(run.size.params)};
        }
    return std::nullopt;
}

// Blocks per multiprocessor below which a grid counts as sized to the GPU,
// whatever n: the most any GPU of the course runs on one at once (H100,
// H200: 32). A grid-stride loop's fixed grid is honest and larger than one
// thread per element at small n; <<<n, BLKDIM>>> passes it from n = 32 x the
// multiprocessors (4224 on an H100) on.
constexpr std::uint64_t kResidentBlocksPerSm = 32;

std::uint64_t threads_of(const wire::KernelRecord& k)
{
    std::uint64_t t = blocks_of(k);
    for (const auto d : k.block) t *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
    return t;
}

// Why launch `k` has more threads than one per element of the size (and a
// spare block in each dimension) and more blocks than the GPU holds at once.
// In threads, not per dimension: a 1-D kernel over a matrix's n * n
// elements keeps to a 2-D task's rule.
std::optional<std::string> too_many_threads(const std::vector<std::string>& per, const Params& params,
                                            const wire::KernelRecord& k, int sm_count)
{
    std::uint64_t bound = 1, elements = 1;
    for (std::size_t d = 0; d < 3; ++d) {
        const std::uint64_t b = static_cast<std::uint64_t>(std::max<std::int64_t>(k.block[d], 1));
        const auto p = d < per.size() ? params.find(per[d]) : params.end();
        if (p == params.end()) {
            bound *= b;
            continue;
        }
        const std::uint64_t n = static_cast<std::uint64_t>(std::max<std::int64_t>(p->second, 1));
        bound *= ((n + b - 1) / b + 1) * b;
        elements *= n;
    }
    const std::uint64_t threads = threads_of(k);
    if (threads <= bound || sm_count <= 0 || blocks_of(k) <= kResidentBlocksPerSm * std::uint64_t(sm_count))
        return std::nullopt;
    return fmt::format("the lesson launches one thread per element, rounded up to whole blocks: {} elements "
                       "({}) need at most {} threads in your blocks; your code launched {} ({}), {:.0f} threads per "
                       "element, and {} blocks, more than this GPU's {} multiprocessors run at once. A grid that "
                       "grows faster than the data (<<<n, BLKDIM>>> gives every element a whole block) leaves "
                       "almost every thread without work",
                       elements, format_params(params), bound, threads, describe_launch(k),
                       double(threads) / double(elements), blocks_of(k), sm_count);
}

}  // namespace

std::optional<Finding> finding_of_thread_count(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count)
{
    const std::vector<std::string>& per = task.expect.one_thread_per;
    if (per.empty()) return std::nullopt;
    return first_wrong_launch(runs, [&](const Params& params, const wire::KernelRecord& k) -> std::optional<MissingFact> {
        auto why = too_many_threads(per, params, k, sm_count);
        if (!why) return std::nullopt;
        return MissingFact {.verdict = Verdict::wrong_launch, .why = std::move(*why)};
    });
}

std::optional<Finding> finding_of_launch_facts(const TaskInfo& task, const std::vector<SizeRun>& runs, int sm_count)
{
    return first_wrong_launch(runs, [&](const Params& params, const wire::KernelRecord& k) -> std::optional<MissingFact> {
        const FactScene scene {.expect = task.expect, .params = params, .launch = &k, .sm_count = sm_count,
                               .named = describe_launch(k)};
        std::vector<MissingFact> missing = missing_facts(ObservedIn::launches, scene);
        if (missing.empty()) return std::nullopt;
        return std::move(missing.front());
    });
}

}  // namespace hpclab
