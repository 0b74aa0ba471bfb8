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

std::vector<CsvRow> parse_csv(std::string_view text, char separator = ',');

// A spreadsheet's text file as UTF-8: UTF-8 with or without a byte-order
// mark, or UTF-16 LE/BE with one (Excel's "Unicode text"), decoded. Throws
// std::runtime_error with a printable message naming the encoding it
// found otherwise (UTF-16 without a mark, Latin-1, a binary file).
std::string spreadsheet_text_as_utf8(std::string_view bytes);
// The separator of a CSV's first line (outside quotes): the most frequent
// of ',', ';' (Excel in many locales) and tab; ',' when it holds none.
char csv_separator(std::string_view text);
// How a separator reads in a message: "','", "';'", "a tab".
std::string separator_name(char separator);
// One field as it is, byte for byte, quoted when it must be: a roster's
// cell goes back to the LMS as it came (an id "+1@x" must stay "+1@x").
// What hpclab itself writes into a cell goes through for_csv
// (util/escape.h) first, which guards formulas.
std::string csv_field(std::string_view field);
std::string csv_line(const CsvRow& row);  // ending in "\n"

}  // namespace hpclab
