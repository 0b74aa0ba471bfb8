// What a student's results.json holds besides the tests of
// gradescope_results (student_report.h), as Gradescope's autograder
// specification defines the fields
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
// "execution_time" (seconds, top level: the sum of the student's checks'
// own measured seconds), each test's check seconds in its "extra_data"
// (the specification has no per-test time), and the "leaderboard" entries
// (https://gradescope-autograders.readthedocs.io/en/latest/leaderboards/)
// of the tasks the student is ranked in, with a line naming their
// pseudonym in "output".
#pragma once

#include "grade/cell_results.h"
#include "grade/gradebook.h"
#include "grade/leaderboard.h"

#include <nlohmann/json.hpp>

namespace hpclab {

// `results` is gradescope_results(book, row): a test per column, in order.
void add_gradescope_fields(nlohmann::json& results, const Gradebook& book, const BookRow& row, const CellResults& cells,
                           const Leaderboard& board);

}  // namespace hpclab
