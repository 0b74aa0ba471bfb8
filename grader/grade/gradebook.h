// The class's marks: a row per student, a column per lab and task, a total.
// A task earns its points (grading_config.h) times its verdict's credit; a
// lab not handed in (or handed in as the skeleton) earns nothing; a verdict
// held for a person earns its credit too, and is named in the row's "held"
// column so that nobody exports it unseen.
#pragma once

#include "intake/class_folder.h"
#include "grade/grading_config.h"
#include "grade/lab_result.h"
#include "intake/roster.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct BookColumn {
    const LabInfo* lab = nullptr;
    const TaskInfo* task = nullptr;
    double points = 0;
    std::string name() const { return lab->id + "." + task->id; }
};

// What became of one task of one student.
struct BookCell {
    // refused: no file graded, but files meant for the lab were found and
    // not taken (class_folder.h says why each).
    enum class State { graded, not_submitted, refused, skeleton, not_graded } state = State::not_submitted;
    const TaskResult* result = nullptr;  // when graded
    std::vector<Ignored> refused;        // when refused
    double earned = 0;
};

// What lateness costs a student (lateness.h): points off the total, never a verdict.
struct BookLateness {
    double days = 0;     // whole days late
    double share = 0;    // of the total taken off
    double penalty = 0;  // points taken off
    std::string why;     // where the days come from
};

struct BookRow {
    std::string student;
    std::vector<BookCell> cells;  // one per column
    double total = 0, max = 0;    // total: the raw points, before any late penalty
    std::vector<std::string> held;  // "matmul.tiled: inconclusive"
    std::optional<BookLateness> late;
    double final_points() const { return total - (late ? late->penalty : 0); }
};

struct Gradebook {
    std::vector<BookColumn> columns;  // the labs the class handed in (a file graded or refused), in course order
    std::vector<BookRow> rows;        // one per student, by id
    bool shows_lateness = false;      // the late days, penalty and final points as columns
};

// `results` are looked up by (student, lab); a result for another version of
// the file than the one in the folder now counts as not graded.
Gradebook make_gradebook(const ClassFolder& cls, const std::vector<LabResult>& results, const Catalog& catalog,
                         const GradingConfig& config);

// gradebook.csv: with a roster, its rows in its order keyed by its columns,
// then the students it does not name; without, a "student" column.
std::string gradebook_csv(const Gradebook& book, const Roster* roster, const RosterMatch* match);
// verdicts.csv: a row per student, lab and task (verdict, points, speedup, message).
std::string verdicts_csv(const Gradebook& book);

std::string cell_verdict(const BookCell& cell);  // "pass", "not_submitted", "refused", ...
// The cell's message on one line: its result's first, or why its files were refused.
std::string cell_message(const BookCell& cell);

}  // namespace hpclab
