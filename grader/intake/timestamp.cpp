#include "intake/timestamp.h"

#include <ctime>
#include <regex>

namespace hpclab {

std::optional<std::int64_t> parse_timestamp(const std::string& text)
{
    static const std::regex form(
        R"(^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, form)) return std::nullopt;
    std::tm t {};
    t.tm_year = std::stoi(m[1]) - 1900;
    t.tm_mon = std::stoi(m[2]) - 1;
    t.tm_mday = std::stoi(m[3]);
    t.tm_hour = std::stoi(m[4]);
    t.tm_min = std::stoi(m[5]);
    t.tm_sec = m[6].matched ? std::stoi(m[6]) : 0;
    if (t.tm_mon > 11 || t.tm_mday < 1 || t.tm_mday > 31 || t.tm_hour > 23 || t.tm_min > 59 || t.tm_sec > 60)
        return std::nullopt;
    std::int64_t seconds = timegm(&t);
    if (const std::string zone = m[7]; zone != "Z") {
        const std::string digits = zone.substr(1, 2) + zone.substr(zone.size() - 2);
        const int offset = std::stoi(digits.substr(0, 2)) * 3600 + std::stoi(digits.substr(2)) * 60;
        seconds -= zone[0] == '+' ? offset : -offset;  // local = UTC + offset
    }
    return seconds;
}

}  // namespace hpclab
