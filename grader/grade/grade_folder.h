// The output folder of `hpclab grade`, where nothing is ever half written:
//
//   grading.json                      the run's settings (the course seed, the submissions, the config)
//   results/<student>/<lab>.json      one per graded file, written whole as it finishes
//   students/<student>/feedback.md    for the student: each task's verdict, why, where, a hint
//   students/<student>/results.json   the same in Gradescope's autograder format
//   gradebook.csv, verdicts.csv       a row per student; a row per student, lab and task
//   report.md, speedups.svg           the class: pass rates, verdicts, speedups, who to look at
//   chunks/<k>/                       a Slurm chunk's own output folder (hpclab merge reads them)
//
// Only one hpclab grade writes a folder at a time: a lock the kernel drops
// when its holder dies, however it dies, so a kill -9 never leaves it stuck.
#pragma once

#include "grade/lab_result.h"
#include "util/atomic_file.h"  // write_file_atomically, for the folder's files

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

class GradeFolder {
public:
    explicit GradeFolder(std::filesystem::path root) : root_(std::move(root)) {}

    const std::filesystem::path& root() const { return root_; }
    std::filesystem::path result_file(const std::string& student, const std::string& lab) const;
    std::filesystem::path student_dir(const std::string& student) const;
    std::filesystem::path chunk_dir(int chunk) const;

    std::optional<LabResult> load(const std::string& student, const std::string& lab) const;
    void save(const LabResult& r) const;
    // Every result in results/; files that are not results are named in `unreadable`.
    std::vector<LabResult> all_results(std::vector<std::string>* unreadable = nullptr) const;

private:
    std::filesystem::path root_;
};

// Held as long as the object lives; throws std::runtime_error when another
// process holds it (naming its pid) or the folder cannot be written. A
// holder that has ended or is ending on this machine (killed a moment ago)
// is waited for, `ended_holder_wait_s` at most: kill -9 then the same
// command at once resumes.
class FolderLock {
public:
    static constexpr double kEndedHolderWait_s = 30;
    explicit FolderLock(const std::filesystem::path& folder, double ended_holder_wait_s = kEndedHolderWait_s);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

private:
    int fd_ = -1;
};

}  // namespace hpclab
