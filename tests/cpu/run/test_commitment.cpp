// commitment_part: the parent's sum of a timed call's commitment terms, built
// vectorised, against the terms one by one (wire/reveal.h, as the harness's
// GPU kernel adds them).
#include "run/commitment.h"
#include "util/mix64.h"
#include "wire/reveal.h"

#include <doctest/doctest.h>

#include <vector>

using namespace hpclab;

namespace {

std::uint64_t one_by_one(const std::vector<std::uint32_t>& words, std::uint64_t from, std::uint64_t to,
                         std::uint64_t key, std::uint32_t buffer)
{
    std::uint64_t sum = 0;
    for (std::uint64_t i = from; i < to; ++i) sum += wire::commitment_term(key, buffer, i, words[i]);
    return sum;
}

}  // namespace

TEST_CASE("commitment: the vectorised sum is the terms' sum, over any range, key and buffer")
{
    std::vector<std::uint32_t> words(10007);
    for (std::size_t i = 0; i < words.size(); ++i) words[i] = static_cast<std::uint32_t>(mix64(i));
    for (const std::uint64_t key : {0ull, 1ull, 0x9E3779B97F4A7C15ull})
        for (const std::uint32_t buffer : {0u, 3u}) {
            CAPTURE(key);
            CAPTURE(buffer);
            CHECK(commitment_part(words.data(), 0, words.size(), key, buffer) ==
                  one_by_one(words, 0, words.size(), key, buffer));
            CHECK(commitment_part(words.data(), 13, 9001, key, buffer) == one_by_one(words, 13, 9001, key, buffer));
            CHECK(commitment_part(words.data(), 5, 5, key, buffer) == 0);  // an empty range
            // Split anywhere, the parts add up to the whole (parallel_for's threads).
            CHECK(commitment_part(words.data(), 0, 4099, key, buffer) +
                      commitment_part(words.data(), 4099, words.size(), key, buffer) ==
                  commitment_part(words.data(), 0, words.size(), key, buffer));
        }
    // One word changed changes the sum.
    const std::uint64_t before = commitment_part(words.data(), 0, words.size(), 7, 0);
    words[4242] ^= 1u;
    CHECK(commitment_part(words.data(), 0, words.size(), 7, 0) != before);
}
