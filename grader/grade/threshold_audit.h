// The threshold audit of a graded class (report.md): for each timed task,
// how the class's measured speedups fall around its threshold, so that an
// instructor sees a threshold that splits the class's noise rather than its
// work before the marks go out.
#pragma once

#include "grade/gradebook.h"

#include <optional>
#include <string>

namespace hpclab {

// One timed task's speedups against its threshold, from the graded cells
// that were timed (a speedup and a pass, too_slow or inconclusive verdict).
struct ThresholdAudit {
    double threshold = 0;              // the cells' own (a course config may move the lab's)
    int timed = 0, pass = 0, too_slow = 0, inconclusive = 0;
    std::optional<double> slowest_pass, fastest_too_slow;
    int pass_at_lower = 0;             // too_slow files the threshold 10 % lower would pass
    int fail_at_higher = 0;            // passing files the threshold 10 % higher would fail
    // The slowest pass over the fastest too slow file (1 or more); none without both.
    std::optional<double> gap() const;
    // Whether a move of 10 % flips a tenth of the timed verdicts or more.
    bool splits_noise() const;
};

// The audit of column `column` of `book`; nullopt for a task not timed or
// where no file was timed.
std::optional<ThresholdAudit> threshold_audit(const Gradebook& book, std::size_t column);

// report.md's "Threshold audit" section: a row per timed task.
std::string threshold_audit_markdown(const Gradebook& book);

}  // namespace hpclab
