#include "grade/gradebook.h"

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
        if (!sub) cell.state = BookCell::State::not_submitted;
        else if (sub->unchanged_skeleton) cell.state = BookCell::State::skeleton;
        else if (!result || result->content_hash != sub->content_hash || !result->find(col.task->id))
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
    return cells;
}

}  // namespace

std::string cell_verdict(const BookCell& cell)
{
    switch (cell.state) {
    case BookCell::State::graded: return std::string(verdict_name(cell.result->verdict));
    case BookCell::State::not_submitted: return "not_submitted";
    case BookCell::State::skeleton: return "skeleton_unchanged";
    case BookCell::State::not_graded: return "not_graded";
    }
    return "";
}

Gradebook make_gradebook(const ClassFolder& cls, const std::vector<LabResult>& results, const Catalog& catalog,
                         const GradingConfig& config)
{
    std::set<const LabInfo*> handed_in;
    for (const Student& s : cls.students)
        for (const Submission& sub : s.submissions) handed_in.insert(sub.lab);
    Gradebook book;
    for (const LabInfo& lab : catalog.labs())
        if (handed_in.count(&lab) || handed_in.empty())
            for (const TaskInfo& t : lab.tasks) book.columns.push_back({&lab, &t, config.points_of(lab, t)});
    std::map<std::pair<std::string, std::string>, const LabResult*> by_key;
    for (const LabResult& r : results) by_key[{r.student, r.lab}] = &r;
    for (const Student& s : cls.students) book.rows.push_back(row_of(s, book.columns, by_key, config));
    return book;
}

std::string gradebook_csv(const Gradebook& book, const Roster* roster, const RosterMatch* match)
{
    std::map<std::string, const BookRow*> row_of_student;
    for (const BookRow& r : book.rows) row_of_student[r.student] = &r;
    std::string out;
    if (!roster || !match) {
        CsvRow header = {"student"};
        for (auto& h : score_header(book)) header.push_back(h);
        out += csv_line(header);
        for (const BookRow& r : book.rows) {
            CsvRow line = {r.student};
            for (auto& c : score_cells(book, &r)) line.push_back(c);
            out += csv_line(line);
        }
        return out;
    }
    CsvRow header = roster->header;
    header.push_back("hpclab student");
    for (auto& h : score_header(book)) header.push_back(h);
    out += csv_line(header);
    std::map<std::size_t, std::string> student_of_row;
    for (const auto& [s, row] : match->row_of) student_of_row[row] = s;
    for (std::size_t i = 0; i < roster->rows.size(); ++i) {
        CsvRow line = roster->rows[i];
        line.resize(roster->header.size());
        const auto s = student_of_row.find(i);
        line.push_back(s == student_of_row.end() ? "" : s->second);
        for (auto& c : score_cells(book, s == student_of_row.end() ? nullptr : row_of_student[s->second])) line.push_back(c);
        out += csv_line(line);
    }
    // The students the roster does not name (or names twice) keep their rows, below.
    for (const BookRow& r : book.rows) {
        if (match->row_of.count(r.student)) continue;
        CsvRow line(roster->header.size());
        line.push_back(r.student);
        auto cells = score_cells(book, &r);
        cells.back() = std::string(match->ambiguous.count(r.student) ? "matches several roster rows" : "not in the roster") +
                       (cells.back().empty() ? "" : "; " + cells.back());
        for (auto& c : cells) line.push_back(c);
        out += csv_line(line);
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
                             t && t->threshold ? number(*t->threshold) : "", t ? first_line(t->message) : ""});
        }
    return out;
}

}  // namespace hpclab
