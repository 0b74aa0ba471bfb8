// Device buffers whose trailing guard zone ends against an unmapped page
// (the invariant "every loop trip is checked", in the plain runs too): an
// access past a buffer's guard zone, which the zone's poison word cannot
// show, faults (CUDA error 700, an illegal address) where it is made, not
// only under compute-sanitizer. Built on the driver's virtual memory
// functions, found through the runtime (cudaGetDriverEntryPointByVersion:
// the harness links no libcuda of its own).
#pragma once

#include <cstdint>

namespace hpclab::guarded {

struct Allocation {
    void* base = nullptr;           // what the caller uses: `bytes` bytes, 256-byte aligned, ending < 256 bytes
                                    // before an unmapped page
    unsigned long long reserved = 0;  // the address range (CUdeviceptr), an unmapped granule on each side
    std::uint64_t reserved_bytes = 0;
    std::uint64_t mapped_bytes = 0;
    unsigned long long handle = 0;  // the physical memory (CUmemGenericAllocationHandle)
};

// `bytes` of device memory on the current device, as above; base is null
// where the driver cannot (no virtual memory management, out of memory):
// the caller then uses cudaMalloc.
Allocation allocate(std::uint64_t bytes);
void release(Allocation& a);

}  // namespace hpclab::guarded
