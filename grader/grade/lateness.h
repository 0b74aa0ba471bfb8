// Late submissions cost points, never a verdict: each student's days late
// (from the instructor's CSV, the submission time against the deadline, or
// the LMS's late mark), less the grace days, times the penalty per day, is a
// share of the student's points taken off the total, as the course's policy
// says (late_policy.h).
#pragma once

#include "grade/gradebook.h"
#include "grade/late_policy.h"
#include "intake/lms_download.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace hpclab {

// One row of the CSV; what it leaves empty is not set.
struct StudentDeadline {
    std::optional<std::int64_t> deadline, submitted;
    std::string deadline_text, submitted_text;
    std::optional<double> extension_days, days_late;
};

// By student; throws std::runtime_error naming the file, the row and the cell.
std::map<std::string, StudentDeadline> read_student_deadlines(const std::filesystem::path& file);

// What lateness costs one student; `row` and `lms` may be null.
BookLateness lateness_of(const LatenessPolicy& policy, const StudentDeadline* row, const LmsStudent* lms);

// Every row's lateness set (the book shows it when a policy is given or the
// download marked anyone); the rows and their verdicts stay as they are.
// Returns the CSV's students the book has no row for.
std::vector<std::string> apply_lateness(Gradebook& book, const LatenessPolicy& policy, const std::map<std::string, StudentDeadline>& rows,
                    const std::map<std::string, LmsStudent>& lms);

// The row's lateness in a sentence, for the student's feedback.
std::string lateness_text(const BookRow& row);

}  // namespace hpclab
