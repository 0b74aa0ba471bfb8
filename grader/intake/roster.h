// The class list an LMS exports (Canvas, Moodle, Blackboard: a CSV with a
// header row), matched to the students' folders by its identity columns
// (a login, an id, an email): a folder matches a row when its name is one of
// the row's identities, or an email's part before the @. What matched, what
// did not and what matched twice is reported, never guessed.
#pragma once

#include "util/csv.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct Roster {
    CsvRow header;
    std::vector<CsvRow> rows;       // the students' rows (a row naming nobody is left out)
    std::vector<std::size_t> keys;  // the identity columns
    // Canvas's second row ("Points Possible" under the names): written back
    // with each score column's points, which Canvas reads on import.
    std::optional<CsvRow> points_possible;
};

// `key_names`: the identity columns by name; empty: the usual ones (ID, SIS
// User ID, SIS Login ID, Username, Email, ID number, ...). Read as
// spreadsheets save it: UTF-8 with or without a byte-order mark, UTF-16
// with one; ',', ';' or tab between fields. Throws std::runtime_error
// naming the file and what is wrong with it (the encoding, the separator),
// in printable text.
Roster read_roster(const std::filesystem::path& file, const std::vector<std::string>& key_names);

struct RosterMatch {
    std::map<std::string, std::size_t> row_of;  // student -> roster row
    std::vector<std::string> unmatched;         // students in no row
    std::map<std::string, std::vector<std::size_t>> ambiguous;  // student -> the rows it matches (or shares)
    std::size_t rows_without_submission = 0;
};

RosterMatch match_roster(const Roster& roster, const std::vector<std::string>& students);

}  // namespace hpclab
