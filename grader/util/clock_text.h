// The current time as text, in one strftime format: file names, records,
// progress, the watch loop's log lines.
#pragma once

#include <ctime>
#include <string>

namespace hpclab {

enum class Zone { local, utc };

inline std::string now_text(const char* format, Zone zone)
{
    const std::time_t now = std::time(nullptr);
    std::tm t {};
    if (zone == Zone::utc) gmtime_r(&now, &t);
    else localtime_r(&now, &t);
    char buf[64];
    return std::strftime(buf, sizeof buf, format, &t) ? buf : "";
}

}  // namespace hpclab
