// The streams lab's overlap, from the trace's intervals (harness/trace.cpp):
// the copies into the device that ran, for some time, while a kernel of
// another stream ran. Header-only: the harness counts with it in the
// student's process, and the CPU tests run it on made-up timelines.
#pragma once

#include <cstdint>
#include <vector>

namespace hpclab::trace {

struct Interval {
    std::uint64_t start, end;
    std::uint32_t stream;
    bool into_device = false;  // a copy from host to device (kernels: unused)
};

// Only copies *into* the device count. A copy out beside a kernel is not
// the pipeline the lesson builds: a wait for each chunk's kernel inside the
// loop (hpc.h's cudaCheckError()) still lets chunk s go out while chunk s+1
// comes in and, the copy out being the slower, while chunk s+1's kernel
// runs; seen on the H100 in one check of tests/broken/streams/
// check_error_each_chunk.cu and not in another. A copy in beside a kernel
// needs the next chunk queued before this one's kernel ended: no wait.
inline std::uint32_t copies_in_beside_kernels(const std::vector<Interval>& copies,
                                              const std::vector<Interval>& kernels)
{
    std::uint32_t n = 0;
    for (const Interval& c : copies) {
        if (!c.into_device) continue;
        for (const Interval& k : kernels)
            if (k.stream != c.stream && c.start < k.end && k.start < c.end) {
                ++n;
                break;
            }
    }
    return n;
}

}  // namespace hpclab::trace
