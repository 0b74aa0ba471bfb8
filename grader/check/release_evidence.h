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
// A kind's name in records: "device_memory", "stream", ...
std::string_view resource_kind_name(int kind);

}  // namespace hpclab
