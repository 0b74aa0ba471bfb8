// The class's speed leaderboard: per timed task, only the files whose
// verdict for it is pass (correct on every graded input and fast enough),
// ranked by the parent's own measurement of their timed calls (the grade
// record's timing.student_ms, on hpclab's clock), one table per GPU model
// and driver, which it names. A file that did not pass is never on it.
//
// The noise rule: a file's timed calls give a median and quartiles. A file
// is ahead of another only when its upper quartile is below the other's
// lower quartile (the middle halves of their calls do not overlap); a
// file's rank is 1 + the number of files ahead of it. Files of the same
// rank are tied, and listed by name, not by median: an order inside the
// noise is not shown anywhere.
//
// Students are named by pseudonyms unless the course config says "ids": a
// SHA-1 of the course seed and the id, stable for as long as the seed is,
// and as private as the seed; each student's feedback names their own.
#pragma once

#include "grade/cell_results.h"
#include "grade/gradebook.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hpclab {

struct LeaderboardEntry {
    std::string student;  // the id
    std::string shown;    // its pseudonym, or the id
    double median_ms = 0, low_ms = 0, high_ms = 0;  // of its timed calls: the median and the quartiles
    std::size_t calls = 0;
    int rank = 0;         // 1 + the entries clearly faster
    bool tied = false;    // another entry has the same rank
};

struct LeaderboardTable {
    std::string task;  // "matmul.tiled"
    std::string gpu;   // "NVIDIA H100 80GB HBM3, CUDA driver 13.0"
    std::vector<LeaderboardEntry> entries;  // by rank, then by shown name
};

struct Leaderboard {
    std::string names = "pseudonyms";     // GradingConfig::leaderboard: pseudonyms, ids, off
    std::vector<LeaderboardTable> tables;  // in the gradebook's column order
    std::vector<std::string> unranked;     // passed, yet nothing to rank it by: "<shown>, <task>: why"
};

// "p-" and 10 hex digits of SHA-1("hpclab leaderboard", the seed, the id).
std::string leaderboard_pseudonym(const std::string& student, std::uint64_t course_seed);

// `names`: GradingConfig::leaderboard ("off": no table at all).
Leaderboard make_leaderboard(const Gradebook& book, const CellResults& cells, std::uint64_t course_seed,
                             const std::string& names);

// report.md's section: each table, the rule, and what was left unranked.
std::string leaderboard_markdown(const Leaderboard& board);
// feedback.md's section for one student ("" when they are on no table).
std::string leaderboard_feedback(const Leaderboard& board, const std::string& student);
// Gradescope's "leaderboard" entries of one student's results.json: per
// task they are ranked in, the rank (sorted ascending), the times and the
// GPU; an empty array when they are on no table.
nlohmann::json gradescope_leaderboard(const Leaderboard& board, const std::string& student);

}  // namespace hpclab
