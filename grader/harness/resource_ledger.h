// The release invariant's evidence, in the child: what the student's call
// made (memory of every kind the CUDA allocator makes, host memory pinned in
// place, streams, events, graphs, executable graphs, memory pools) and had
// not released when it returned. Memory comes from CUPTI's allocation
// records (trace.cpp hands them on), whatever function made it; the handles
// from CUPTI's callbacks on the runtime's and the driver's functions that
// make and destroy them (a driver call the runtime makes inside one of its
// own is the runtime's, and not counted twice). Written into the call's
// trace: like the rest of it, a claim the parent holds only against a file.
#pragma once

#include "wire/exchange.h"

#include <cstdint>

namespace hpclab::ledger {

// Subscribes to CUPTI's callbacks, once per process; false where it cannot
// (another subscriber, or no CUPTI): the ledger then says it was not kept.
bool start();
// From here to end_call(), what is made and released is the call's.
void begin_call();
// One of CUPTI's memory records of the call (an allocation or a release).
void memory_record(std::uint64_t timestamp, bool allocation, wire::ResourceKind kind, std::uint64_t address,
                   std::uint64_t bytes, bool async);
// The call's ledger, once every record is in (after CUPTI's flush).
void end_call(wire::ResourceLedger& into);

}  // namespace hpclab::ledger
