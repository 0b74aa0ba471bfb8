#include "util/word_count.h"

#include <cstring>

namespace hpclab {

// Built with -O3 (grader/CMakeLists.txt): the loop is then vectorised and
// reads at the memory's speed; at -O2 it goes a word at a time, and a
// streams check scans every word of its timed outputs.
std::uint64_t count_word(const std::byte* base, std::uint64_t from, std::uint64_t to, std::uint32_t word)
{
    std::uint64_t n = 0;
    for (std::uint64_t i = from; i < to; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, base + 4 * i, 4);
        n += bits == word;
    }
    return n;
}

}  // namespace hpclab
