// The invariant range_ends (course/invariants.h): beside the random inputs,
// every task runs at one small size (check/plan.h) on inputs at the ends of the range its
// spec fills them from (input_fills' [lo, hi], the values the contract
// allows): sorted up, sorted down, every element at the bottom, every
// element at the top. A value exactly at an end (a histogram's largest
// value, one bin past the last) or an extreme at the first or the last
// element falls where a random draw seldom puts it.
#pragma once

#include "course/call_buffers.h"
#include "course/task_spec.h"

#include <span>
#include <string>
#include <vector>

namespace hpclab {

enum class InputEnds { none, ascending, descending, all_low, all_high };

// The four shapes a task runs at besides its random inputs.
std::span<const InputEnds> every_input_end();

// Reshapes each input of `call` that a fill names, made from that fill
// already (TaskSpec::generate): its values sorted, or every one at the
// fill's lo or hi. Every value stays in [lo, hi]; the other buffers are
// left as they were.
void shape_inputs(const std::vector<InputFill>& fills, InputEnds ends, CallBuffers& call);

// In two or three words: "sorted up", "all at the top".
const char* input_ends_name(InputEnds ends);

// In words, with the values at this size: "every element at the top of its
// range (a = 1000000, b = 1000000)".
std::string describe_input_ends(const std::vector<InputFill>& fills, InputEnds ends);

}  // namespace hpclab
