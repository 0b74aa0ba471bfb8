#include "grade/lateness.h"

#include "intake/timestamp.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

constexpr double kDay_s = 86400;

std::optional<double> number_cell(const std::string& cell)
{
    const std::string t = trimmed(cell);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !std::isfinite(v) || v < 0) return std::nullopt;
    return v;
}

// One cell of the CSV into `row`; throws naming the cell when it is not what its column holds.
void read_cell(StudentDeadline& row, const std::string& column, const std::string& cell, const std::string& where)
{
    if (trimmed(cell).empty()) return;
    if (column == "deadline" || column == "submitted") {
        const auto t = parse_timestamp(cell);
        if (!t) throw std::runtime_error(fmt::format("{}: {} '{}' is not {}", where, column, for_terminal(cell), kTimestampForm));
        (column == "deadline" ? row.deadline : row.submitted) = t;
        (column == "deadline" ? row.deadline_text : row.submitted_text) = trimmed(cell);
    } else if (column == "extension_days" || column == "days_late") {
        const auto v = number_cell(cell);
        if (!v) throw std::runtime_error(fmt::format("{}: {} '{}' is not a number of days, 0 or more", where, column, for_terminal(cell)));
        (column == "days_late" ? row.days_late : row.extension_days) = v;
    }
}

std::string days_text(double d) { return fmt::format("{:g} day{}", d, d == 1 ? "" : "s"); }

// The days late, and where they come from, before grace days and penalty.
BookLateness days_late(const LatenessPolicy& policy, const StudentDeadline* row, const LmsStudent* lms)
{
    if (row && row->days_late) return {.days = *row->days_late, .why = "days_late in the students' CSV"};
    const double extension = row && row->extension_days ? *row->extension_days : 0;
    const std::string with_extension = extension > 0 ? ", with " + days_text(extension) + "' extension" : "";
    const bool own_time = row && row->submitted;
    const auto submitted = own_time ? row->submitted : lms ? lms->submitted_at : std::nullopt;
    const bool own_deadline = row && row->deadline;
    const auto deadline = own_deadline ? row->deadline : policy.deadline;
    if (submitted && deadline) {
        const double late_s = static_cast<double>(*submitted - *deadline) - extension * kDay_s;
        // Any part of a day late counts as a day, as a per-day penalty is usually meant.
        return {.days = late_s > 0 ? std::ceil(late_s / kDay_s) : 0,
                .why = fmt::format("submitted {}, deadline {}{}", own_time ? row->submitted_text : lms->submitted_text,
                                   own_deadline ? row->deadline_text : policy.deadline_text, with_extension)};
    }
    if (lms && lms->late_mark)
        return {.days = std::max(0.0, policy.late_mark_days - extension),
                .why = "the LMS's late mark, counted as " + days_text(policy.late_mark_days) + with_extension};
    if (submitted) return {.why = "a submission time, but no deadline to compare it with"};
    return {};
}

}  // namespace

std::map<std::string, StudentDeadline> read_student_deadlines(const fs::path& file)
{
    const std::string name = for_terminal(file.string());
    const auto bytes = read_text_file(file);
    if (!bytes) throw std::runtime_error(name + ": cannot be read");
    const std::string text = spreadsheet_text_as_utf8(*bytes);
    const std::vector<CsvRow> rows = parse_csv(text, csv_separator(text));
    if (rows.empty()) throw std::runtime_error(name + ": empty (a CSV with a header row: student, deadline, extension_days, ...)");
    std::vector<std::string> columns;
    for (const std::string& h : rows.front()) columns.push_back(trimmed_lower(h));
    const auto student = std::find(columns.begin(), columns.end(), "student");
    if (student == columns.end()) throw std::runtime_error(name + ": no \"student\" column (the id the gradebook names)");
    std::map<std::string, StudentDeadline> out;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const std::string where = fmt::format("{}: row {}", name, r + 1);
        const std::size_t s = static_cast<std::size_t>(student - columns.begin());
        const std::string id = s < rows[r].size() ? trimmed(rows[r][s]) : "";
        if (id.empty()) continue;
        if (out.count(id)) throw std::runtime_error(where + ": " + for_terminal(id) + " has a row already");
        StudentDeadline& row = out[id];
        for (std::size_t c = 0; c < rows[r].size() && c < columns.size(); ++c) read_cell(row, columns[c], rows[r][c], where);
    }
    return out;
}

BookLateness lateness_of(const LatenessPolicy& policy, const StudentDeadline* row, const LmsStudent* lms)
{
    BookLateness l = days_late(policy, row, lms);
    if (!policy.given) {
        if (l.days > 0) l.why += "; no lateness policy in the course config: no penalty";
        return l;
    }
    const double counted = std::max(0.0, l.days - policy.grace_days);
    l.share = std::min(policy.max_penalty, policy.penalty_per_day * counted);
    if (l.days > 0 && policy.grace_days > 0)
        l.why += fmt::format("; {} of grace", days_text(std::min(l.days, policy.grace_days)));
    return l;
}

std::vector<std::string> apply_lateness(Gradebook& book, const LatenessPolicy& policy, const std::map<std::string, StudentDeadline>& rows,
                    const std::map<std::string, LmsStudent>& lms)
{
    const bool marked = std::any_of(lms.begin(), lms.end(), [](const auto& s) { return s.second.late_mark || s.second.submitted_at; });
    book.shows_lateness = policy.given || marked || !rows.empty();
    std::vector<std::string> unknown;
    for (const auto& [id, row] : rows)
        if (std::none_of(book.rows.begin(), book.rows.end(), [&](const BookRow& r) { return r.student == id; })) unknown.push_back(id);
    if (!book.shows_lateness) return unknown;
    for (BookRow& r : book.rows) {
        const auto row = rows.find(r.student);
        const auto mark = lms.find(r.student);
        BookLateness l = lateness_of(policy, row == rows.end() ? nullptr : &row->second, mark == lms.end() ? nullptr : &mark->second);
        l.penalty = r.total * l.share;
        r.late = l;
    }
    return unknown;
}

std::string lateness_text(const BookRow& row)
{
    if (!row.late) return "";
    const BookLateness& l = *row.late;
    return fmt::format("Late by {} ({}): {:g} points off, {:g} of {:g} points in the end.", days_text(l.days), l.why,
                       l.penalty, row.final_points(), row.max);
}

}  // namespace hpclab
