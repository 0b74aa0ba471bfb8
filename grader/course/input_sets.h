// The input sets of a timed run.
//
// Timed calls cycle through a few input sets kept on the device (see
// wire/exchange.h). Set 0 comes from the lab's generator; every other set is
// set 0 with about one element in `kChangedOneIn`, at random places,
// replaced by the value of another random element. So the sets:
// - differ, and the outputs with them: a result cached by pointer, or work
//   skipped after the first call, is wrong at the next call;
// - cannot be told apart by looking at a few elements: a cache keyed on a
//   fingerprint of the inputs has to read all of them, the cost of the work
//   itself for a memory-bound lab;
// - keep the generator's value ranges (every value is one it produced).
#pragma once

#include "course/call_buffers.h"

#include <cstdint>

namespace hpclab {

inline constexpr std::uint64_t kChangedOneIn = 32;

// Writes into `into`'s inputs those of `base`, changed as above from `seed`.
// Outputs are left alone. Both must hold the same buffers.
void derive_input_set(const CallBuffers& base, CallBuffers& into, std::uint64_t seed);

}  // namespace hpclab
