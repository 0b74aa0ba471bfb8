#include "grade/gradebook.h"

#include "util/escape.h"

#include <fmt/format.h>

#include <set>

namespace hpclab {

namespace {

std::string number(double x) { return fmt::format("{:g}", x); }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

BookRow row_of(const Student& s, const std::vector<BookColumn>& columns,
               const std::map<std::pair<std::string, std::string>, const LabResult*>& results,
               const GradingConfig& config)
{
    BookRow row {.student = s.id};
    for (const BookColumn& col : columns) {
        BookCell cell;
        const Submission* sub = nullptr;
        for (const Submission& x : s.submissions)
            if (x.lab == col.lab) sub = &x;
        const auto r = results.find({s.id, col.lab->id});
        const LabResult* result = r == results.end() ? nullptr : r->second;
        for (const Ignored& g : s.refused)
            if (g.lab == col.lab) cell.refused.push_back(g);
        if (!sub) cell.state = cell.refused.empty() ? BookCell::State::not_submitted : BookCell::State::refused;
        else if (sub->unchanged_skeleton) cell.state = BookCell::State::skeleton;
        else if (!result || result->content_hash != sub->content_hash || !result->covered || !result->find(col.task->id))
            cell.state = BookCell::State::not_graded;
        else {
            cell.state = BookCell::State::graded;
            cell.result = result->find(col.task->id);
            cell.earned = col.points * config.credit_of(cell.result->verdict);
        }
        if (cell.state == BookCell::State::not_graded) row.held.push_back(col.name() + ": not graded yet");
        else if (cell.result && held_for_a_person(cell.result->verdict))
            row.held.push_back(col.name() + ": " + std::string(verdict_name(cell.result->verdict)));
        row.total += cell.earned;
        row.max += col.points;
        row.cells.push_back(cell);
    }
    return row;
}

std::vector<std::string> score_header(const Gradebook& book)
{
    std::vector<std::string> h;
    for (const BookColumn& c : book.columns) h.push_back(fmt::format("{} ({})", c.name(), number(c.points)));
    h.insert(h.end(), {"total", "max", "held"});
    if (book.shows_lateness) h.insert(h.end(), {"days late", "late penalty", "final", "lateness"});
    return h;
}

std::vector<std::string> score_cells(const Gradebook& book, const BookRow* row)
{
    std::vector<std::string> cells;
    double max = 0;
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        max += book.columns[i].points;
        cells.push_back(!row ? "0" : row->cells[i].state == BookCell::State::not_graded ? "" : number(row->cells[i].earned));
    }
    std::string held;
    if (row)
        for (const std::string& h : row->held) held += (held.empty() ? "" : "; ") + h;
    cells.insert(cells.end(), {number(row ? row->total : 0), number(max), row ? held : "no submission"});
    if (book.shows_lateness) {
        const BookLateness late = row && row->late ? *row->late : BookLateness {};
        cells.insert(cells.end(), {number(late.days), number(late.penalty), number(row ? row->final_points() : 0), late.why});
    }
    return cells;
}

}  // namespace

std::string cell_verdict(const BookCell& cell)
{
    switch (cell.state) {
    case BookCell::State::graded: return std::string(verdict_name(cell.result->verdict));
    case BookCell::State::not_submitted: return "not_submitted";
    case BookCell::State::refused: return "refused";
    case BookCell::State::skeleton: return "skeleton_unchanged";
    case BookCell::State::not_graded: return "not_graded";
    }
    return "";
}

std::string cell_message(const BookCell& cell)
{
    if (cell.result) return first_line(cell.result->message);
    std::string out;
    for (const Ignored& g : cell.refused) out += (out.empty() ? "" : "; ") + g.path.string() + ": " + g.why;
    return out;
}

Gradebook make_gradebook(const ClassFolder& cls, const std::vector<LabResult>& results, const Catalog& catalog,
                         const GradingConfig& config)
{
    std::set<const LabInfo*> handed_in;  // a file graded, or refused (its student is told why)
    for (const Student& s : cls.students) {
        for (const Submission& sub : s.submissions) handed_in.insert(sub.lab);
        for (const Ignored& g : s.refused) handed_in.insert(g.lab);
    }
    Gradebook book;
    for (const LabInfo& lab : catalog.labs())
        if (handed_in.count(&lab) || handed_in.empty())
            for (const TaskInfo& t : lab.tasks) book.columns.push_back({&lab, &t, config.points_of(lab, t)});
    std::map<std::pair<std::string, std::string>, const LabResult*> by_key;
    for (const LabResult& r : results) by_key[{r.student, r.lab}] = &r;
    for (const Student& s : cls.students) book.rows.push_back(row_of(s, book.columns, by_key, config));
    return book;
}

// The cells hpclab adds to a row: the student's folder name (an id, as it
// is: its letters cannot make a formula call anything, class_folder.h) and
// the scores, guarded as hpclab's own text.
CsvRow with_scores(CsvRow line, const std::string& student, const std::vector<std::string>& scores)
{
    line.push_back(student);
    for (const std::string& s : scores) line.push_back(for_csv(s));
    return line;
}

std::string gradebook_csv(const Gradebook& book, const Roster* roster, const RosterMatch* match)
{
    std::map<std::string, const BookRow*> row_of_student;
    for (const BookRow& r : book.rows) row_of_student[r.student] = &r;
    const std::vector<std::string> header = score_header(book);
    if (!roster || !match) {
        std::string out = csv_line(with_scores({}, "student", header));
        for (const BookRow& r : book.rows) out += csv_line(with_scores({}, r.student, score_cells(book, &r)));
        return out;
    }
    // The roster's own cells go back byte for byte: the LMS matches its rows by them.
    std::string out = csv_line(with_scores(roster->header, "hpclab student", header));
    if (roster->points_possible) {
        CsvRow line = *roster->points_possible;
        line.resize(roster->header.size());
        std::vector<std::string> points;
        for (const BookColumn& c : book.columns) points.push_back(number(c.points));
        out += csv_line(with_scores(line, "", points));
    }
    std::map<std::size_t, std::string> student_of_row;
    for (const auto& [s, row] : match->row_of) student_of_row[row] = s;
    for (std::size_t i = 0; i < roster->rows.size(); ++i) {
        CsvRow line = roster->rows[i];
        line.resize(roster->header.size());
        const auto s = student_of_row.find(i);
        const bool found = s != student_of_row.end();
        out += csv_line(with_scores(line, found ? s->second : "", score_cells(book, found ? row_of_student[s->second] : nullptr)));
    }
    // The students the roster does not name (or names twice) keep their rows, below.
    for (const BookRow& r : book.rows) {
        if (match->row_of.count(r.student)) continue;
        auto cells = score_cells(book, &r);
        std::string& held = cells[book.columns.size() + 2];  // after the scores, the total and the max
        held = std::string(match->ambiguous.count(r.student) ? "matches several roster rows" : "not in the roster") +
               (held.empty() ? "" : "; " + held);
        out += csv_line(with_scores(CsvRow(roster->header.size()), r.student, cells));
    }
    return out;
}

std::string verdicts_csv(const Gradebook& book)
{
    std::string out = csv_line({"student", "lab", "task", "verdict", "points", "max", "speedup", "needed", "message"});
    for (const BookRow& r : book.rows)
        for (std::size_t i = 0; i < book.columns.size(); ++i) {
            const BookColumn& col = book.columns[i];
            const BookCell& cell = r.cells[i];
            const TaskResult* t = cell.result;
            out += csv_line({r.student, col.lab->id, col.task->id, cell_verdict(cell), number(cell.earned),
                             number(col.points), t && t->speedup ? fmt::format("{:.3f}", *t->speedup) : "",
                             t && t->threshold ? number(*t->threshold) : "", for_csv(cell_message(cell))});
        }
    return out;
}

}  // namespace hpclab
