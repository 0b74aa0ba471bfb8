// A minimal parallel loop for the parent's large fills and comparisons.
#pragma once

#include <cstdint>
#include <functional>

namespace hpclab {

// Calls body(begin, end) on disjoint ranges covering [0, count), on up to
// as many threads as the calling thread may use CPUs, each with at least
// `grain` items; a count below two grains runs on the calling thread.
void parallel_for(std::uint64_t count, const std::function<void(std::uint64_t, std::uint64_t)>& body,
                  std::uint64_t grain = 1u << 18);

}  // namespace hpclab

#include <algorithm>
#include <atomic>
#include <future>
#include <vector>

namespace hpclab {

// Runs `jobs` at most `parallel` at a time, in their order: a worker that
// finishes one takes the next (a slow job holds only its own slot).
// Results in the jobs' order; a job's exception comes out here.
template <class T> std::vector<T> run_bounded(std::vector<std::function<T()>> jobs, int parallel)
{
    std::vector<T> out(jobs.size());
    std::atomic<std::size_t> next {0};
    std::vector<std::future<void>> workers;
    const std::size_t nworkers = std::min<std::size_t>(jobs.size(), static_cast<std::size_t>(std::max(1, parallel)));
    for (std::size_t w = 0; w < nworkers; ++w)
        workers.push_back(std::async(std::launch::async, [&] {
            for (std::size_t j = next++; j < jobs.size(); j = next++) out[j] = jobs[j]();
        }));
    for (auto& w : workers) w.get();
    return out;
}

}  // namespace hpclab
