// The invariant "releases" (course/invariants.h): what one call made and had
// not released when it returned, from the ledger the harness keeps of it
// (wire::ResourceLedger, harness/resource_ledger.h), in words: each kind
// left, how many of how many, the bytes, and the function that made it.
#pragma once

#include "wire/exchange.h"

#include <optional>
#include <string>
#include <string_view>

namespace hpclab {

// Why the call broke the invariant, or nothing (also when no ledger was kept).
std::optional<std::string> unreleased(const wire::ResourceLedger& ledger);
// Why what the program made before main (before_main: its global objects'
// constructors) and still held when main began breaks the invariant, or
// nothing: made outside every call, it is held through all of them.
std::optional<std::string> held_from_start(const wire::ResourceLedger& before_main);
// A kind's name in records: "device_memory", "stream", ...
std::string_view resource_kind_name(int kind);

}  // namespace hpclab
