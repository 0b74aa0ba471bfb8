#include "run/commitment.h"

#include "wire/reveal.h"

namespace hpclab {

// Built at -O3 (grader/CMakeLists.txt), and on x86-64 also for the CPUs with
// AVX-512 (chosen as the program loads): the mix's 64-bit multiplies then go
// eight words at a time, where without them the loop goes a word at a time.
// The parent sums every word of every timed call's outputs (streams: 768 MiB
// a program), after the GPU turn and before the check can answer.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
std::uint64_t commitment_part(const std::uint32_t* words, std::uint64_t from, std::uint64_t to, std::uint64_t key,
                              std::uint32_t buffer)
{
    std::uint64_t sum = 0;
    for (std::uint64_t i = from; i < to; ++i) sum += wire::commitment_term(key, buffer, i, words[i]);
    return sum;
}

}  // namespace hpclab
