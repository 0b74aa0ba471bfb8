#include "util/keyed_hash.h"

#include "util/parallel.h"
#include "util/mix64.h"

#include <atomic>
#include <cstring>

namespace hpclab {

namespace {

std::uint64_t hash_chunk(const std::byte* p, std::uint64_t n, std::uint64_t key)
{
    std::uint64_t h = mix64(key ^ n);
    std::uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = mix64(h ^ w) + i;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p + i, n - i);
    return mix64(h ^ tail ^ (n - i));
}

}  // namespace

std::uint64_t keyed_hash(std::span<const std::byte> bytes, std::uint64_t key)
{
    // Hash 1 MiB chunks independently (in parallel) and combine them with
    // their index, so that the result does not depend on the thread count.
    constexpr std::uint64_t kChunk = 1u << 20;
    const std::uint64_t chunks = (bytes.size() + kChunk - 1) / kChunk;
    std::atomic<std::uint64_t> total {mix64(key ^ bytes.size())};
    parallel_for(
        chunks,
        [&](std::uint64_t begin, std::uint64_t end) {
            std::uint64_t acc = 0;
            for (std::uint64_t c = begin; c < end; ++c) {
                const std::uint64_t off = c * kChunk;
                const std::uint64_t n = std::min<std::uint64_t>(kChunk, bytes.size() - off);
                acc += mix64(hash_chunk(bytes.data() + off, n, key) ^ mix64(c));
            }
            total += acc;
        },
        /*grain=*/8);
    return mix64(total.load());
}

}  // namespace hpclab
