#include "check/lesson_facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

namespace hpclab {

namespace {

using Why = std::optional<std::string>;

std::uint32_t recorded(const wire::CallTrace& t) { return std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords); }

bool any_code(const FactScene& s, bool (*shows)(const KernelCode&))
{
    return std::any_of(s.code.begin(), s.code.end(), [&](const KernelCode* k) { return shows(*k); });
}

Why launch_2d(const FactScene& s)
{
    for (std::uint32_t i = 0; i < recorded(*s.trace); ++i)
        if (s.trace->kernel[i].grid[1] > 1 || s.trace->kernel[i].block[1] > 1) return std::nullopt;
    return fmt::format("the lesson asks for a 2-D launch (dim3 blocks and grid); your code launched {}", s.named);
}

// A call the listing does not name may be printf's.
Why printf_in_kernel(const FactScene& s)
{
    if (any_code(s, [](const KernelCode& k) { return k.prints || k.calls_unnamed; })) return std::nullopt;
    return fmt::format("{} never calls printf: the greetings must be printed by the GPU's threads, with printf "
                       "inside the kernel, not by the host around the launch",
                       s.named);
}

// A kernel that reads no shared memory at all is the shared_memory
// technique's own finding (check/code_evidence.h); generic loads may read it.
Why shared_reads_in_loop(const FactScene& s)
{
    if (any_code(s, [](const KernelCode& k) { return k.generic_loads || k.reads_shared_in_loop; })) return std::nullopt;
    if (!any_code(s, [](const KernelCode& k) { return k.reads_shared; })) return std::nullopt;
    return fmt::format("{} reads its shared memory only outside its loop: the lesson's steps each load a tile into "
                       "shared memory and compute from it, inside the loop",
                       s.named);
}

Why no_device_malloc(const FactScene& s)
{
    if (s.trace->allocations == 0) return std::nullopt;
    return fmt::format("the call allocated device memory ({} cudaMalloc, {} bytes): this task keeps its data in "
                       "__device__ variables, allocated when the program is loaded, and copies it with "
                       "cudaMemcpyFromSymbol / cudaMemcpyToSymbol, with no cudaMalloc",
                       s.trace->allocations, s.trace->allocated_bytes);
}

Why constant_bank_reads(const FactScene& s)
{
    if (any_code(s, [](const KernelCode& k) { return k.reads_user_constants || k.calls_unnamed; })) return std::nullopt;
    return fmt::format("{} never reads __constant__ memory (its machine code has no read of the constant bank): the "
                       "lesson copies the data every thread reads into a __constant__ array with cudaMemcpyToSymbol, "
                       "and the kernel reads it from there by name",
                       s.named);
}

Why pinned_copies(const FactScene& s)
{
    const wire::CallTrace& t = *s.trace;
    if (t.pageable_copies == 0) return std::nullopt;
    return fmt::format("{} of the call's {} copies between host and device were from or to pageable memory: the "
                       "driver stages them through a buffer of its own, at a fraction of the bus's speed, and an "
                       "asynchronous one waits for the host. Allocate the host vectors in pinned memory "
                       "(cudaHostAlloc in host_alloc)",
                       t.pageable_copies, t.pinned_copies + t.pageable_copies);
}

// Pageable copies cannot overlap; where the task asks pinned_copies too,
// they are the finding, not this.
Why copies_overlap_kernels(const FactScene& s)
{
    const wire::CallTrace& t = *s.trace;
    const std::uint32_t host_copies = t.pinned_copies + t.pageable_copies;
    if (host_copies == 0 || t.overlapped_copies > 0) return std::nullopt;
    if (t.pageable_copies > 0 && s.expect.asks(LessonFact::pinned_copies)) return std::nullopt;
    return fmt::format("none of the call's {} copies between host and device brought a chunk in while a kernel of "
                       "another stream ran: its {} copies and {} kernel launch(es) used {} stream(s), and each kernel "
                       "waited for the copies or they for it (one stream for every chunk, a kernel on the default "
                       "stream, or a wait inside the loop: cudaStreamSynchronize, cudaDeviceSynchronize, or hpc.h's "
                       "cudaCheckError(), which waits for the device)",
                       host_copies, t.copies, t.kernels, t.streams);
}

Why grid_fills_gpu_once(const FactScene& s)
{
    const int per_sm = s.expect.asks(LessonFact::grid_fills_gpu_once)->blocks_per_sm;
    const std::uint64_t bound = std::uint64_t(per_sm) * std::uint64_t(std::max(s.sm_count, 0));
    if (s.sm_count <= 0 || blocks_of(*s.launch) <= bound) return std::nullopt;
    return fmt::format("your code launched {} blocks ({}), {:.0f} per multiprocessor of this GPU ({} of them): the "
                       "lesson's grid fills the GPU once, at most {} blocks per multiprocessor ({} here), and each "
                       "thread loops over the array with a stride of the whole grid; a grid that grows with n is not it",
                       blocks_of(*s.launch), s.named, double(blocks_of(*s.launch)) / s.sm_count, s.sm_count, per_sm,
                       bound);
}

Why no_kernel(const FactScene& s)
{
    if (s.trace->kernels == 0) return std::nullopt;
    return fmt::format("{} kernel launch(es) where none may run: {}", s.trace->kernels, s.named);
}

// A call the listing does not name, or an atomic through a generic pointer, may be it.
Why shared_atomics(const FactScene& s)
{
    if (any_code(s, [](const KernelCode& k) { return k.atomics_on_shared || k.generic_atomics || k.calls_unnamed; }))
        return std::nullopt;
    return fmt::format("{} never updates shared memory with an atomic: the lesson's private histogram is a "
                       "__shared__ array of the bins, zeroed, counted into with atomicAdd() on it, and added into "
                       "the result once per block after a __syncthreads()",
                       s.named);
}

struct FactObserver {
    LessonFact id;
    Verdict verdict;
    bool load_can_bend;
    Why (*missing)(const FactScene&);
};

constexpr std::array kObservers = {
    FactObserver {LessonFact::launch_2d, Verdict::wrong_launch, false, launch_2d},
    FactObserver {LessonFact::printf_in_kernel, Verdict::not_on_gpu, false, printf_in_kernel},
    FactObserver {LessonFact::shared_reads_in_loop, Verdict::no_shared_memory, false, shared_reads_in_loop},
    FactObserver {LessonFact::no_device_malloc, Verdict::wrong_launch, false, no_device_malloc},
    FactObserver {LessonFact::constant_bank_reads, Verdict::wrong_launch, false, constant_bank_reads},
    FactObserver {LessonFact::pinned_copies, Verdict::slow_copies, false, pinned_copies},
    FactObserver {LessonFact::copies_overlap_kernels, Verdict::slow_copies, true, copies_overlap_kernels},
    FactObserver {LessonFact::grid_fills_gpu_once, Verdict::wrong_launch, false, grid_fills_gpu_once},
    FactObserver {LessonFact::no_kernel, Verdict::wrong_launch, false, no_kernel},
    FactObserver {LessonFact::shared_atomics, Verdict::no_shared_memory, false, shared_atomics},
};

constexpr bool one_row_per_fact()
{
    for (std::size_t i = 0; i < kObservers.size(); ++i)
        if (static_cast<std::size_t>(kObservers[i].id) != i) return false;
    return kObservers.size() == kLessonFacts;
}
static_assert(one_row_per_fact(), "kObservers has one row per LessonFact, in its order");

}  // namespace

std::uint64_t blocks_of(const wire::KernelRecord& k)
{
    std::uint64_t blocks = 1;
    for (const auto d : k.grid) blocks *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
    return blocks;
}

std::vector<MissingFact> missing_facts(ObservedIn where, const FactScene& scene)
{
    std::vector<MissingFact> out;
    for (const ShownFact& asked : scene.expect.shows) {
        if (lesson_fact_info(asked.fact).where != where) continue;
        if (where != ObservedIn::machine_code && !asked_at(asked, scene.params)) continue;
        const FactObserver& row = kObservers[static_cast<std::size_t>(asked.fact)];
        if (auto why = row.missing(scene)) out.push_back({asked.fact, row.verdict, std::move(*why), row.load_can_bend});
    }
    return out;
}

}  // namespace hpclab
