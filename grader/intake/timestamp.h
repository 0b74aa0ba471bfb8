// A date and time as the LMSs and an instructor's spreadsheet write them,
// to seconds since 1970 UTC: ISO 8601 ("2026-11-20T23:59:00+01:00",
// "2026-11-20T22:59Z") and Gradescope's export ("2026-11-20 14:59:00.123
// -0800"). The zone is required: a deadline "at midnight" is nobody's
// midnight without it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hpclab {

std::optional<std::int64_t> parse_timestamp(const std::string& text);

// What parse_timestamp reads, for a message.
constexpr const char* kTimestampForm = "a date and time with its zone, as 2026-11-20T23:59:00+01:00";

}  // namespace hpclab
