// CSV as spreadsheets and LMSs write it (RFC 4180: quoted fields, doubled
// quotes, line breaks inside quotes, CRLF or LF, a UTF-8 byte-order mark).
// Hand-written: Debian offers no C++ CSV library worth a dependency for a
// roster and a gradebook, and these forty lines are the whole format.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

using CsvRow = std::vector<std::string>;

std::vector<CsvRow> parse_csv(std::string_view text);
// One field, quoted when it must be; a field a spreadsheet would run as a
// formula (=, +, -, @ first) is prefixed with ' so that it stays text.
std::string csv_field(std::string_view field);
std::string csv_line(const CsvRow& row);  // ending in "\n"

}  // namespace hpclab
