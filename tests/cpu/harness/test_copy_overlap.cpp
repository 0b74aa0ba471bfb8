// The streams lab's overlap count on made-up timelines (microseconds), as
// the H100's traces showed them: eight chunks of 8 MiB, copies in and out of
// about 330 us each, kernels of a few.
#include "harness/copy_overlap.h"

#include <doctest/doctest.h>

using hpclab::trace::copies_in_beside_kernels;
using hpclab::trace::Interval;

namespace {

constexpr std::uint64_t kCopy = 330, kKernel = 5;

// Chunk s on stream s: its copy in, kernel and copy out, in order. `wait`:
// the host queued chunk s + 1 only once chunk s's kernel had ended (a
// cudaCheckError() inside the loop); otherwise all chunks were queued at once.
struct Timeline {
    std::vector<Interval> copies, kernels;
};
Timeline chunks(int n, bool wait, bool same_stream = false)
{
    Timeline t;
    std::uint64_t in_free = 0, out_free = 0;  // when each copy engine is next free
    for (int s = 0; s < n; ++s) {
        const std::uint32_t stream = same_stream ? 0 : static_cast<std::uint32_t>(s);
        const std::uint64_t in_start = in_free;
        const std::uint64_t in_end = in_start + kCopy;
        t.copies.push_back({in_start, in_end, stream, true});
        const std::uint64_t k_start = in_end + 1, k_end = k_start + kKernel;
        t.kernels.push_back({k_start, k_end, stream});
        // The copy out is the slower direction (as on the H100: 40 us more).
        const std::uint64_t out_start = std::max(out_free, k_end), out_end = out_start + kCopy + 40;
        t.copies.push_back({out_start, out_end, stream, false});
        out_free = out_end;
        in_free = wait ? k_end + 1 : in_end;  // one stream: the next copy in waits for this copy out too
        if (same_stream) in_free = out_end;
    }
    return t;
}

}  // namespace

TEST_CASE("streams overlap: chunks queued at once copy each chunk in beside the kernel before it")
{
    const Timeline t = chunks(8, false);
    CHECK(copies_in_beside_kernels(t.copies, t.kernels) == 7);  // every chunk's copy in but the first
}

TEST_CASE("streams overlap: a wait for each chunk's kernel leaves a copy out beside the next kernel, and no copy in")
{
    const Timeline t = chunks(8, true);
    // The old rule (any copy beside another stream's kernel) counted these:
    int outs_beside = 0;
    for (const Interval& c : t.copies)
        for (const Interval& k : t.kernels)
            if (!c.into_device && k.stream != c.stream && c.start < k.end && k.start < c.end) {
                ++outs_beside;
                break;
            }
    CHECK(outs_beside > 0);
    CHECK(copies_in_beside_kernels(t.copies, t.kernels) == 0);
}

TEST_CASE("streams overlap: on one stream nothing counts, beside its own kernels or not")
{
    const Timeline t = chunks(8, false, true);
    CHECK(copies_in_beside_kernels(t.copies, t.kernels) == 0);
    // A copy in beside a kernel of its own stream does not count either.
    CHECK(copies_in_beside_kernels({{0, 100, 3, true}}, {{50, 60, 3}}) == 0);
    CHECK(copies_in_beside_kernels({{0, 100, 3, true}}, {{50, 60, 4}}) == 1);
    CHECK(copies_in_beside_kernels({{0, 100, 3, true}}, {{100, 160, 4}}) == 0);  // touching is not beside
}
