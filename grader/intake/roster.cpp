#include "intake/roster.h"

#include "util/escape.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace hpclab {

namespace {

// The columns the usual LMS exports name their students by.
const std::set<std::string> kUsualKeys = {"id", "student id", "sis user id", "sis login id", "login id", "login",
                                          "username", "user name", "email", "email address", "e-mail", "id number",
                                          "student number", "netid", "net id", "user id", "student",
                                          "sid", "identifier"};  // Gradescope's roster; Moodle's grading worksheet

bool names_someone(const CsvRow& row, const std::vector<std::size_t>& keys)
{
    return std::any_of(keys.begin(), keys.end(), [&](std::size_t k) {
        return k < row.size() && !trimmed_lower(row[k]).empty() &&
               trimmed_lower(row[k]).find("points possible") == std::string::npos;
    });
}

bool row_names(const CsvRow& row, const std::vector<std::size_t>& keys, const std::string& student)
{
    const std::string id = trimmed_lower(student);
    for (std::size_t k : keys) {
        if (k >= row.size()) continue;
        const std::string v = trimmed_lower(row[k]);
        if (v.empty()) continue;
        if (v == id) return true;
        const auto at = v.find('@');
        if (at != std::string::npos && at > 0 && v.substr(0, at) == id) return true;
        // Moodle's grading worksheet names a student "Participant <id>", the id its download's folders carry.
        if (v.rfind("participant ", 0) == 0 && trimmed(v.substr(12)) == id) return true;
    }
    return false;
}

bool points_possible_row(const CsvRow& row)
{
    return std::any_of(row.begin(), row.end(),
                       [](const std::string& cell) { return trimmed_lower(cell) == "points possible"; });
}

std::string joined_for_terminal(const CsvRow& row)
{
    std::string out;
    for (const auto& cell : row) out += (out.empty() ? "" : ", ") + for_terminal(cell);
    return out;
}

}  // namespace

Roster read_roster(const std::filesystem::path& file, const std::vector<std::string>& key_names)
{
    const std::string name = for_terminal(file.string());
    const auto bytes = read_text_file(file);
    if (!bytes) throw std::runtime_error(name + ": cannot be read");
    std::string text;
    try {
        text = spreadsheet_text_as_utf8(*bytes);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(name + ": " + e.what());
    }
    const char separator = csv_separator(text);
    std::vector<CsvRow> rows = parse_csv(text, separator);
    if (rows.empty()) throw std::runtime_error(name + ": empty (a roster is a CSV with a header row)");
    Roster r {.header = rows.front()};
    for (std::size_t c = 0; c < r.header.size(); ++c) {
        const std::string h = trimmed_lower(r.header[c]);
        const bool wanted = key_names.empty()
                                ? kUsualKeys.count(h) > 0
                                : std::any_of(key_names.begin(), key_names.end(),
                                              [&](const std::string& k) { return trimmed_lower(k) == h; });
        if (wanted) r.keys.push_back(c);
    }
    if (r.keys.empty())
        throw std::runtime_error(fmt::format(
            "{}: no column names a student{} (its {} columns, read as separated by {}: {}); name the identity columns "
            "with --roster-key{}",
            name, key_names.empty() ? "" : " among those given", r.header.size(), separator_name(separator),
            joined_for_terminal(r.header),
            r.header.size() == 1 ? ", or save it with ',', ';' or tabs between the columns" : ""));
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (i == 1 && points_possible_row(rows[i])) r.points_possible = std::move(rows[i]);
        else if (names_someone(rows[i], r.keys)) r.rows.push_back(std::move(rows[i]));
    }
    return r;
}

RosterMatch match_roster(const Roster& roster, const std::vector<std::string>& students)
{
    RosterMatch m;
    std::map<std::size_t, std::vector<std::string>> students_of_row;
    for (const std::string& s : students) {
        std::vector<std::size_t> rows;
        for (std::size_t i = 0; i < roster.rows.size(); ++i)
            if (row_names(roster.rows[i], roster.keys, s)) rows.push_back(i);
        if (rows.empty()) m.unmatched.push_back(s);
        else if (rows.size() > 1) m.ambiguous[s] = rows;
        else students_of_row[rows.front()].push_back(s);
    }
    for (const auto& [row, who] : students_of_row) {
        if (who.size() == 1) m.row_of[who.front()] = row;
        else
            for (const std::string& s : who) m.ambiguous[s] = {row};  // two folders claim one row
    }
    std::set<std::size_t> taken;
    for (const auto& [s, row] : m.row_of) taken.insert(row);
    m.rows_without_submission = roster.rows.size() - taken.size();
    return m;
}

}  // namespace hpclab
