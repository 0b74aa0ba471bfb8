// CUPTI activity records of the student's code: what kernels it launched
// (name, grid, block, shared memory, GPU time), what it copied, allocated
// and freed. The student's calls are traced, and what its global objects
// make before main: the harness turns the records on just before each call
// (or at its own first constructor) and off once the device is idle again
// (or at main's first line).
#pragma once

#include "wire/exchange.h"

namespace hpclab::trace {

// Starts CUPTI; false when this harness was built without it or it failed.
bool start();
// Records what the device does from here ...
void begin_call(wire::CallTrace* into);
// ... to here (the device must be idle: records are flushed).
void end_call();

// Before main, where the job asks for a trace: what the student's global
// objects make as the program starts (their constructors run before main)
// is watched like a call, from here ...
void watch_before_main();
// ... to main's first line: what was made then and is still held (a ledger
// that says it was not kept when nothing was watched).
wire::ResourceLedger end_before_main();

}  // namespace hpclab::trace
