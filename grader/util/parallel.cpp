#include "util/parallel.h"

#include <sched.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace hpclab {

namespace {

// The CPUs this thread may run on now: a check leaves the timed programs'
// CPUs (run_recipe.h, leave_timing_cpus), and a thread more than there are
// CPUs holds every pass up until it gets one.
std::uint64_t usable_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<std::uint64_t>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

void parallel_for(std::uint64_t count, const std::function<void(std::uint64_t, std::uint64_t)>& body,
                  std::uint64_t grain)
{
    const std::uint64_t hw = usable_cpus();
    const std::uint64_t nthreads = std::min<std::uint64_t>(hw, count / std::max<std::uint64_t>(grain, 1));
    if (nthreads <= 1) {
        body(0, count);
        return;
    }
    const std::uint64_t chunk = (count + nthreads - 1) / nthreads;
    std::vector<std::thread> threads;
    for (std::uint64_t t = 0; t < nthreads; ++t) {
        const std::uint64_t begin = t * chunk, end = std::min(count, begin + chunk);
        if (begin < end) threads.emplace_back(body, begin, end);
    }
    for (auto& th : threads) th.join();
}

}  // namespace hpclab
