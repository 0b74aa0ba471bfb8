// The parts of a class's grading that `hpclab grade` (grade_class.h) and
// `hpclab merge` put together: the grading's settings kept in the output
// folder (so that the same command resumes, and a regrade runs the same
// inputs), which files still need a check, the chunks' results merged, and
// every output made again from the results on disk.
#pragma once

#include "intake/class_folder.h"
#include "grade/class_run.h"
#include "grade/grade_folder.h"
#include "grade/gradebook.h"
#include "grade/grading_config.h"
#include "intake/roster.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// What a grading of a class is, kept as grading.json in its output folder.
struct GradingSettings {
    std::filesystem::path submissions;          // absolute
    std::uint64_t seed = 0;                     // the course's
    std::filesystem::path config;               // empty: the defaults
    std::filesystem::path roster;               // empty: none
    std::vector<std::string> roster_keys;
    int chunks = 0;                             // > 0: graded as Slurm chunks (chunks/<k>/)
};

// The settings of `out`, when it has some (throws when they cannot be read).
std::optional<GradingSettings> read_settings(const GradeFolder& out);
void write_settings(const GradeFolder& out, const GradingSettings& s);

// The students of chunk `k` of `chunks`: a contiguous share of the sorted ids.
std::vector<const Student*> students_of_chunk(const ClassFolder& cls, int k, int chunks);

// The files of `students` that need a check: not the skeleton, and no final
// result for this very content and seed (`again`: every file); and those
// whose final result an earlier run wrote but no GPU health check covered
// (it was killed first): grade_jobs covers them, or checks them again.
struct PendingJobs {
    std::vector<GradeJob> to_check, uncovered;
};
PendingJobs pending_jobs(const GradeFolder& out, const std::vector<const Student*>& students, std::uint64_t course_seed,
                         bool again);

struct ClassOutputs {
    Gradebook book;
    std::optional<RosterMatch> roster_match;
    std::size_t results = 0;
    std::vector<std::string> unreadable;  // result files that are not results
    std::vector<std::string> lateness_unknown;  // the lateness CSV's students with no row in the book
};

// gradebook.csv, verdicts.csv, report.md (with its similarity section),
// similarity.csv, speedups.svg and students/*/ in
// `out`, from `results` (throws on a roster or a folder it cannot use).
ClassOutputs write_class_outputs(const GradeFolder& out, const ClassFolder& cls, const std::vector<LabResult>& results,
                                 const Catalog& catalog, const GradingConfig& config, const GradingSettings& settings);

// Every result of a Slurm grading: its chunks' folders (and its own).
std::vector<LabResult> results_of_chunks(const GradeFolder& out, int chunks, std::vector<std::string>* unreadable);

// The chunks some of whose files have no result yet, or a grader error.
std::vector<int> incomplete_chunks(const ClassFolder& cls, const std::vector<LabResult>& results, int chunks);

// A grading's results (its chunks' and its own: settings.chunks, 0 for
// none), every output made from them, and the chunks not complete; throws
// as write_class_outputs does. The book points into `results`.
struct MergedChunks {
    std::vector<LabResult> results;
    ClassOutputs outputs;
    std::vector<int> incomplete;
};
MergedChunks merge_chunks(const GradeFolder& out, const ClassFolder& cls, const Catalog& catalog,
                          const GradingConfig& config, const GradingSettings& settings);

}  // namespace hpclab
