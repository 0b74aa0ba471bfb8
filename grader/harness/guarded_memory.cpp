#include "guarded_memory.h"

#include <cuda.h>
#include <cuda_runtime.h>

namespace hpclab::guarded {

namespace {

template <class F> F entry(const char* name)
{
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found {};
    if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
        return nullptr;
    return reinterpret_cast<F>(f);
}

struct Driver {
    decltype(&cuMemGetAllocationGranularity) granularity = entry<decltype(granularity)>("cuMemGetAllocationGranularity");
    decltype(&cuMemAddressReserve) reserve = entry<decltype(reserve)>("cuMemAddressReserve");
    decltype(&cuMemCreate) create = entry<decltype(create)>("cuMemCreate");
    decltype(&cuMemMap) map = entry<decltype(map)>("cuMemMap");
    decltype(&cuMemSetAccess) set_access = entry<decltype(set_access)>("cuMemSetAccess");
    decltype(&cuMemUnmap) unmap = entry<decltype(unmap)>("cuMemUnmap");
    decltype(&cuMemRelease) release = entry<decltype(release)>("cuMemRelease");
    decltype(&cuMemAddressFree) address_free = entry<decltype(address_free)>("cuMemAddressFree");

    bool whole() const
    {
        return granularity && reserve && create && map && set_access && unmap && release && address_free;
    }
};

const Driver& driver()
{
    static const Driver d;
    return d;
}

std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

}  // namespace

Allocation allocate(std::uint64_t bytes)
{
    Allocation a;
    const Driver& d = driver();
    int device = 0;
    if (!d.whole() || cudaGetDevice(&device) != cudaSuccess) return a;
    CUmemAllocationProp prop {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    std::size_t granule = 0;
    if (d.granularity(&granule, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS || granule == 0) return a;
    const std::uint64_t mapped = round_up(bytes ? bytes : 1, granule);
    const std::uint64_t reserved = mapped + 2 * granule;  // an unmapped granule before and after
    CUdeviceptr range = 0;
    if (d.reserve(&range, reserved, granule, 0, 0) != CUDA_SUCCESS) return a;
    CUmemGenericAllocationHandle handle {};
    if (d.create(&handle, mapped, &prop, 0) != CUDA_SUCCESS) {
        d.address_free(range, reserved);
        return a;
    }
    const CUdeviceptr start = range + granule;
    CUmemAccessDesc access {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    const bool mapped_ok = d.map(start, mapped, 0, handle, 0) == CUDA_SUCCESS;
    if (!mapped_ok || d.set_access(start, mapped, &access, 1) != CUDA_SUCCESS) {
        if (mapped_ok) d.unmap(start, mapped);
        d.release(handle);
        d.address_free(range, reserved);
        return a;
    }
    // The end of the buffer as close to the mapping's end as a 256-byte
    // aligned start allows (cudaMalloc's alignment, which kernels may count on).
    a.base = reinterpret_cast<void*>((start + mapped - bytes) & ~static_cast<CUdeviceptr>(255));
    a.reserved = range;
    a.reserved_bytes = reserved;
    a.mapped_bytes = mapped;
    a.handle = handle;
    return a;
}

void release(Allocation& a)
{
    if (!a.base) return;
    const Driver& d = driver();
    const CUdeviceptr start = a.reserved + (a.reserved_bytes - a.mapped_bytes) / 2;
    d.unmap(start, a.mapped_bytes);
    d.release(a.handle);
    d.address_free(a.reserved, a.reserved_bytes);
    a = {};
}

}  // namespace hpclab::guarded
