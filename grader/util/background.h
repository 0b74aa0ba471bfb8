// Work taken off a caller's path: run on one thread of its own, in the order
// given, while the caller goes on. For giving back large memory: the munmap
// of a check's 20 correctness exchanges held its timed turn up by about
// 0.08 s on an H200 (the timeline of docs/results/check-times-h200.txt,
// "correctness and sanitizer runs" past the last "judging of").
#pragma once

#include <functional>

namespace hpclab {

// What is still queued as the process exits runs first.
void run_in_background(std::function<void()> work);

}  // namespace hpclab
