#include "resource_ledger.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#if HPCLAB_HAVE_CUPTI
#include <cupti.h>  // with the parameter structures of every runtime and driver function
#endif

namespace hpclab::ledger {

namespace {

using wire::ResourceKind;

struct Made {
    ResourceKind kind;
    const char* by;
    std::uint64_t bytes;
};

struct MemoryRecord {
    std::uint64_t timestamp;
    bool allocation;
    ResourceKind kind;
    std::uint64_t address;
    std::uint64_t bytes;
    bool async;
};

std::mutex g_mutex;  // constant-initialized, as the two below
std::atomic<bool> g_watching {false};
bool g_started = false;

// What the call (or the start, before main) made and has not released. Made
// on first use: the ledger is kept before main, from a constructor that runs
// before the program's other globals are made, and a global map made after
// it would start empty again.
struct Ledger {
    std::map<std::pair<ResourceKind, std::uint64_t>, Made> live;  // made, not yet released
    std::uint32_t made[wire::kResourceKinds] {};
    std::vector<MemoryRecord> memory;
};

Ledger& ledger()
{
    static Ledger l;
    return l;
}

void note_made(ResourceKind kind, std::uint64_t handle, const char* by, std::uint64_t bytes)
{
    std::lock_guard lock(g_mutex);
    // The same handle seen twice (a runtime call and the driver's under it
    // on a path the depth below misses) is one thing made.
    Ledger& l = ledger();
    if (l.live.emplace(std::pair {kind, handle}, Made {kind, by, bytes}).second) ++l.made[static_cast<int>(kind)];
}

void note_released(ResourceKind kind, std::uint64_t handle)
{
    std::lock_guard lock(g_mutex);
    ledger().live.erase({kind, handle});
}

const char* memory_maker(ResourceKind kind, bool async)
{
    switch (kind) {
    case ResourceKind::device_memory: return async ? "cudaMallocAsync" : "cudaMalloc";
    case ResourceKind::managed_memory: return "cudaMallocManaged";
    case ResourceKind::pinned_memory: return "cudaMallocHost or cudaHostAlloc";
    default: return "?";
    }
}

// The memory records in the order they happened (records come in buffers,
// and an address freed in the call can be given again in the same call).
void replay_memory(Ledger& l)
{
    std::stable_sort(l.memory.begin(), l.memory.end(),
                     [](const MemoryRecord& a, const MemoryRecord& b) { return a.timestamp < b.timestamp; });
    for (const MemoryRecord& m : l.memory) {
        if (!m.allocation) {
            l.live.erase({m.kind, m.address});
            continue;
        }
        l.live[{m.kind, m.address}] = Made {m.kind, memory_maker(m.kind, m.async), m.bytes};
        ++l.made[static_cast<int>(m.kind)];
    }
    l.memory.clear();
}

#if HPCLAB_HAVE_CUPTI

// A function that makes or releases one of the kinds: where its handle is in
// the function's parameters (CUPTI's generated structures), and whether the
// parameter is the handle itself or where the function writes it.
struct Effect {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    ResourceKind kind;
    enum { makes_out, makes_value, releases } what;
    std::size_t offset;
    const char* name;
};

#define RT(fn, field, kind, what, name) \
    Effect { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##fn, ResourceKind::kind, Effect::what, offsetof(fn##_params, field), name }
#define DRV(fn, field, kind, what) \
    Effect { CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##fn, ResourceKind::kind, Effect::what, offsetof(fn##_params, field), #fn }

const Effect kEffects[] = {
    RT(cudaStreamCreate_v3020, pStream, stream, makes_out, "cudaStreamCreate"),
    RT(cudaStreamCreateWithFlags_v5000, pStream, stream, makes_out, "cudaStreamCreateWithFlags"),
    RT(cudaStreamCreateWithPriority_v5050, pStream, stream, makes_out, "cudaStreamCreateWithPriority"),
    RT(cudaStreamDestroy_v5050, stream, stream, releases, "cudaStreamDestroy"),
    RT(cudaEventCreate_v3020, event, event, makes_out, "cudaEventCreate"),
    RT(cudaEventCreateWithFlags_v3020, event, event, makes_out, "cudaEventCreateWithFlags"),
    RT(cudaEventDestroy_v3020, event, event, releases, "cudaEventDestroy"),
    RT(cudaHostRegister_v4000, ptr, registered_memory, makes_value, "cudaHostRegister"),
    RT(cudaHostUnregister_v4000, ptr, registered_memory, releases, "cudaHostUnregister"),
    RT(cudaGraphCreate_v10000, pGraph, graph, makes_out, "cudaGraphCreate"),
    RT(cudaGraphClone_v10000, pGraphClone, graph, makes_out, "cudaGraphClone"),
    RT(cudaStreamEndCapture_v10000, pGraph, graph, makes_out, "cudaStreamEndCapture"),
    RT(cudaStreamEndCapture_ptsz_v10000, pGraph, graph, makes_out, "cudaStreamEndCapture"),
    RT(cudaGraphDestroy_v10000, graph, graph, releases, "cudaGraphDestroy"),
    RT(cudaGraphInstantiate_v12000, pGraphExec, graph_exec, makes_out, "cudaGraphInstantiate"),
    RT(cudaGraphInstantiateWithFlags_v11040, pGraphExec, graph_exec, makes_out, "cudaGraphInstantiateWithFlags"),
    RT(cudaGraphInstantiateWithParams_v12000, pGraphExec, graph_exec, makes_out, "cudaGraphInstantiateWithParams"),
    RT(cudaGraphInstantiateWithParams_ptsz_v12000, pGraphExec, graph_exec, makes_out, "cudaGraphInstantiateWithParams"),
    RT(cudaGraphExecDestroy_v10000, graphExec, graph_exec, releases, "cudaGraphExecDestroy"),
    RT(cudaMemPoolCreate_v11020, memPool, memory_pool, makes_out, "cudaMemPoolCreate"),
    RT(cudaMemPoolDestroy_v11020, memPool, memory_pool, releases, "cudaMemPoolDestroy"),
    DRV(cuStreamCreate, phStream, stream, makes_out),
    DRV(cuStreamCreateWithPriority, phStream, stream, makes_out),
    DRV(cuStreamDestroy, hStream, stream, releases),
    DRV(cuStreamDestroy_v2, hStream, stream, releases),
    DRV(cuEventCreate, phEvent, event, makes_out),
    DRV(cuEventDestroy, hEvent, event, releases),
    DRV(cuEventDestroy_v2, hEvent, event, releases),
    DRV(cuMemHostRegister, p, registered_memory, makes_value),
    DRV(cuMemHostRegister_v2, p, registered_memory, makes_value),
    DRV(cuMemHostUnregister, p, registered_memory, releases),
    DRV(cuGraphCreate, phGraph, graph, makes_out),
    DRV(cuGraphClone, phGraphClone, graph, makes_out),
    DRV(cuStreamEndCapture, phGraph, graph, makes_out),
    DRV(cuStreamEndCapture_ptsz, phGraph, graph, makes_out),
    DRV(cuGraphDestroy, hGraph, graph, releases),
    DRV(cuGraphInstantiate, phGraphExec, graph_exec, makes_out),
    DRV(cuGraphInstantiate_v2, phGraphExec, graph_exec, makes_out),
    DRV(cuGraphInstantiateWithFlags, phGraphExec, graph_exec, makes_out),
    DRV(cuGraphInstantiateWithParams, phGraphExec, graph_exec, makes_out),
    DRV(cuGraphInstantiateWithParams_ptsz, phGraphExec, graph_exec, makes_out),
    DRV(cuGraphExecDestroy, hGraphExec, graph_exec, releases),
    DRV(cuMemPoolCreate, pool, memory_pool, makes_out),
    DRV(cuMemPoolDestroy, pool, memory_pool, releases),
};

#undef RT
#undef DRV

// Inside a runtime function: its own calls into the driver are its doing.
thread_local int t_runtime_depth = 0;

const Effect* effect_of(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    for (const Effect& e : kEffects)
        if (e.domain == domain && e.cbid == cbid) return &e;
    return nullptr;
}

std::uint64_t word_at(const void* params, std::size_t offset)
{
    void* const* p = reinterpret_cast<void* const*>(static_cast<const char*>(params) + offset);
    return reinterpret_cast<std::uint64_t>(*p);
}

// The bytes a cudaHostRegister pinned (its second parameter, in both APIs).
std::uint64_t registered_bytes(const Effect& e, const void* params)
{
    if (e.domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        return static_cast<const cudaHostRegister_v4000_params*>(params)->size;
    return static_cast<const cuMemHostRegister_v2_params*>(params)->bytesize;
}

void apply(const Effect& e, const CUpti_CallbackData& data)
{
    if (e.what == Effect::releases) {
        note_released(e.kind, word_at(data.functionParams, e.offset));
        return;
    }
    const bool ok = data.functionReturnValue && *static_cast<const int*>(data.functionReturnValue) == 0;
    if (!ok) return;
    if (e.what == Effect::makes_value) {
        note_made(e.kind, word_at(data.functionParams, e.offset), e.name, registered_bytes(e, data.functionParams));
        return;
    }
    const auto* out = reinterpret_cast<const void* const*>(word_at(data.functionParams, e.offset));
    if (out) note_made(e.kind, reinterpret_cast<std::uint64_t>(*out), e.name, 0);
}

void CUPTIAPI on_api(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* raw)
{
    const auto& data = *static_cast<const CUpti_CallbackData*>(raw);
    const bool enter = data.callbackSite == CUPTI_API_ENTER;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) t_runtime_depth += enter ? 1 : -1;
    if (!g_watching.load(std::memory_order_acquire)) return;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && t_runtime_depth > 0) return;
    const Effect* e = effect_of(domain, cbid);
    if (!e) return;
    // A release counts at its start (the handle is still the caller's), a
    // making at its end (the handle exists once the function succeeded).
    if ((e->what == Effect::releases) == enter) apply(*e, data);
}

bool subscribe()
{
    CUpti_SubscriberHandle subscriber = nullptr;
    if (cuptiSubscribe(&subscriber, on_api, nullptr) != CUPTI_SUCCESS) return false;
    for (const Effect& e : kEffects)
        if (cuptiEnableCallback(1, subscriber, e.domain, e.cbid) != CUPTI_SUCCESS) return false;
    // Every runtime function's entry and exit, for the depth above: the
    // driver calls a runtime function makes inside itself are its own.
    return cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS;
}

#else

bool subscribe() { return false; }

#endif

}  // namespace

bool start()
{
    static const bool started = subscribe();
    g_started = started;
    return started;
}

void begin_call()
{
    {
        std::lock_guard lock(g_mutex);
        ledger() = Ledger {};
    }
    g_watching.store(true, std::memory_order_release);
}

void memory_record(std::uint64_t timestamp, bool allocation, ResourceKind kind, std::uint64_t address,
                   std::uint64_t bytes, bool async)
{
    std::lock_guard lock(g_mutex);
    ledger().memory.push_back({timestamp, allocation, kind, address, bytes, async});
}

void end_call(wire::ResourceLedger& into)
{
    g_watching.store(false, std::memory_order_release);
    std::lock_guard lock(g_mutex);
    Ledger& l = ledger();
    replay_memory(l);
    into = wire::ResourceLedger {};
    into.traced = g_started ? 1 : 0;
    for (int k = 0; k < wire::kResourceKinds; ++k) into.made[k] = l.made[k];
    for (const auto& [key, made] : l.live) {
        const int k = static_cast<int>(made.kind);
        if (into.left[k]++ == 0) wire::set_name(into.made_by[k], sizeof into.made_by[k], made.by);
        into.bytes_left[k] += made.bytes;
    }
    l.live.clear();
}

}  // namespace hpclab::ledger
