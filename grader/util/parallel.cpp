#include "util/parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace hpclab {

void parallel_for(std::uint64_t count, const std::function<void(std::uint64_t, std::uint64_t)>& body,
                  std::uint64_t grain)
{
    const std::uint64_t hw = std::max(1u, std::thread::hardware_concurrency());
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
