#include "trace.h"

#include "copy_overlap.h"
#include "resource_ledger.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#if HPCLAB_HAVE_CUPTI
#include <cupti.h>
#endif

namespace hpclab::trace {

#if HPCLAB_HAVE_CUPTI

namespace {

wire::CallTrace* g_current = nullptr;
wire::CallTrace g_before_main;  // what the records of the start, before main, go into

#if CUPTI_API_VERSION >= 130000
using KernelActivity = CUpti_ActivityKernel10;
using MemcpyActivity = CUpti_ActivityMemcpy6;
using MemoryActivity = CUpti_ActivityMemory4;
#else
using KernelActivity = CUpti_ActivityKernel9;
using MemcpyActivity = CUpti_ActivityMemcpy5;
using MemoryActivity = CUpti_ActivityMemory3;
#endif

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMORY2};

// When each kernel and each host<->device copy of the call ran, on which
// stream: what end_call() counts the overlapped copies and the streams from.
// A call of the course makes a few dozen; past the cap, the rest are not
// kept (the counts then say at least).
constexpr std::size_t kMaxIntervals = 1024;
struct Intervals {
    std::mutex mutex;
    std::vector<Interval> kernels, copies;
};
// Made on first use, not as a global: the trace may start before main, in
// the harness's early constructor, before the globals that need a
// constructor of their own have had it (it would empty them again).
Intervals& intervals()
{
    static Intervals i;
    return i;
}

void keep_interval(std::vector<Interval> Intervals::*list, const Interval& i)
{
    Intervals& all = intervals();
    std::lock_guard lock(all.mutex);
    if ((all.*list).size() < kMaxIntervals) (all.*list).push_back(i);
}

// Under the intervals' mutex.
std::uint32_t distinct_streams(const Intervals& all)
{
    std::set<std::uint32_t> ids;
    for (const auto* list : {&all.kernels, &all.copies})
        for (const Interval& i : *list) ids.insert(i.stream);
    return static_cast<std::uint32_t>(ids.size());
}

// The host side of a copy between host and device: pinned, pageable or neither.
void count_host_kind(const MemcpyActivity& m, wire::CallTrace& t)
{
    const auto host = m.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? m.srcKind : m.dstKind;
    if (host == CUPTI_ACTIVITY_MEMORY_KIND_PINNED) ++t.pinned_copies;
    else if (host == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE) ++t.pageable_copies;
}

// An allocation or release of a kind the release invariant follows.
void note_memory(const MemoryActivity& m)
{
    using wire::ResourceKind;
    ResourceKind kind;
    switch (m.memoryKind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: kind = ResourceKind::device_memory; break;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: kind = ResourceKind::managed_memory; break;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: kind = ResourceKind::pinned_memory; break;
    default: return;
    }
    const bool allocation = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    if (!allocation && m.memoryOperationType != CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) return;
    ledger::memory_record(m.timestamp, allocation, kind, m.address, m.bytes, m.isAsync != 0);
}

void record(const CUpti_Activity* a, wire::CallTrace& t)
{
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const KernelActivity*>(a);
        if (t.kernels < static_cast<std::uint32_t>(wire::kMaxKernelRecords)) {
            wire::KernelRecord& r = t.kernel[t.kernels];
            wire::set_name(r.name, sizeof r.name, k->name ? k->name : "?");
            r.grid[0] = k->gridX;
            r.grid[1] = k->gridY;
            r.grid[2] = k->gridZ;
            r.block[0] = k->blockX;
            r.block[1] = k->blockY;
            r.block[2] = k->blockZ;
            r.static_shared = k->staticSharedMemory;
            r.dynamic_shared = k->dynamicSharedMemory;
            r.duration_ns = k->end - k->start;
        }
        if (k->staticSharedMemory > 0 || k->dynamicSharedMemory > 0) t.any_shared = 1;
        t.kernel_ns += k->end - k->start;
        ++t.kernels;
        keep_interval(&Intervals::kernels, {k->start, k->end, k->streamId, false});
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const MemcpyActivity*>(a);
        ++t.copies;
        if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD) t.h2d_bytes += m->bytes;
        else if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH) t.d2h_bytes += m->bytes;
        else if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD) t.d2d_bytes += m->bytes;
        if (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD || m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH) {
            count_host_kind(*m, t);
            keep_interval(&Intervals::copies,
                          {m->start, m->end, m->streamId, m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD});
        }
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: ++t.memsets; break;
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const auto* m = reinterpret_cast<const MemoryActivity*>(a);
        note_memory(*m);
        if (m->memoryKind != CUPTI_ACTIVITY_MEMORY_KIND_DEVICE) break;
        if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION) {
            ++t.allocations;
            t.allocated_bytes += m->bytes;
        } else if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) {
            ++t.frees;
            t.freed_bytes += m->bytes;
        }
        break;
    }
    default: break;
    }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records)
{
    *size = 1 << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t, size_t valid)
{
    CUpti_Activity* a = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS)
        if (g_current) record(a, *g_current);
    size_t dropped = 0;
    if (g_current && cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        g_current->dropped += static_cast<std::uint32_t>(dropped);
    std::free(buffer);
}

}  // namespace

bool start()
{
    // Once per process: a program that runs several exchanges asks for each.
    static const bool started = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS;
    if (started) ledger::start();  // where it cannot, each call's ledger says so
    return started;
}

void begin_call(wire::CallTrace* into)
{
    std::memset(into, 0, sizeof *into);
    {
        Intervals& all = intervals();
        std::lock_guard lock(all.mutex);
        all.kernels.clear();
        all.copies.clear();
    }
    g_current = into;
    ledger::begin_call();
    for (auto k : kKinds) cuptiActivityEnable(k);
}

void end_call()
{
    for (auto k : kKinds) cuptiActivityDisable(k);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (g_current) {
        Intervals& all = intervals();
        std::lock_guard lock(all.mutex);
        g_current->overlapped_copies = copies_in_beside_kernels(all.copies, all.kernels);
        g_current->streams = distinct_streams(all);
        g_current->traced = 1;
    }
    if (g_current) ledger::end_call(g_current->resources);
    g_current = nullptr;
}

void watch_before_main()
{
    if (start()) begin_call(&g_before_main);
}

wire::ResourceLedger end_before_main()
{
    if (g_current != &g_before_main) return {};
    end_call();
    return g_before_main.resources;
}

#else  // built without CUPTI: nothing is traced, and the parent is told so

bool start() { return false; }
void begin_call(wire::CallTrace* into) { std::memset(into, 0, sizeof *into); }
void end_call() {}
void watch_before_main() {}
wire::ResourceLedger end_before_main() { return {}; }

#endif

}  // namespace hpclab::trace
