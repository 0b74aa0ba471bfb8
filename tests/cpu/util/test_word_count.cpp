// count_word: the poison scan's loop, over any range and any alignment.
#include "util/word_count.h"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace hpclab;

TEST_CASE("count_word: every word equal to the one asked for, in the range alone, at any alignment")
{
    constexpr std::uint32_t kWord = 0x7FBADBADu;
    std::vector<std::uint32_t> words(1000, 7);
    for (std::uint64_t i : {0u, 1u, 31u, 32u, 500u, 998u, 999u}) words[i] = kWord;
    const auto* base = reinterpret_cast<const std::byte*>(words.data());
    CHECK(count_word(base, 0, 1000, kWord) == 7);
    CHECK(count_word(base, 1, 999, kWord) == 5);   // the ends left out
    CHECK(count_word(base, 2, 31, kWord) == 0);
    CHECK(count_word(base, 500, 500, kWord) == 0);  // an empty range
    CHECK(count_word(base, 0, 1000, 7) == 993);
    CHECK(count_word(base, 0, 1000, 8) == 0);

    // The same words one byte off their alignment: a buffer's output slot need not be aligned.
    std::vector<std::byte> shifted(4 * words.size() + 1);
    std::memcpy(shifted.data() + 1, words.data(), 4 * words.size());
    CHECK(count_word(shifted.data() + 1, 0, 1000, kWord) == 7);
    CHECK(count_word(shifted.data() + 1, 31, 33, kWord) == 2);
}
