// A student's progress through the labs, kept beside the course in
// <state folder>/progress.json (state_dir.h): how many hints each lab has shown,
// its last verdict, whether a check has ever passed. It belongs to the
// student's copy of the course (never committed: .gitignore names it).
//
// Several hpclab processes touch it at once (`hpclab watch` shows hints while
// its `hpclab check` child records verdicts), so nobody keeps it in memory for
// long: load, change one lab, save. A save replaces the file atomically.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace hpclab {

// The finding that decided a failing check (verdict.h's Finding), as the
// student's progress keeps it for `hpclab hint`: the next hint comes from
// the evidence before the lab's fixed ladder.
struct CheckEvidence {
    std::string task;     // "tiled"
    std::string verdict;  // a verdict name: "race"
    std::string where;    // "n=33"
    std::string message;  // what went wrong, where
    std::string hint;     // the likely bug, in the lab's words when it has some
    bool empty() const { return verdict.empty(); }
};

struct LabProgress {
    int hints_shown = 0;      // hints 1..hints_shown have been shown
    std::string last_verdict; // a verdict name (verdict.h) of the last check; empty: never checked
    bool solved = false;      // a check has passed once (stays true after a later failure)
    std::string last_check;   // when, ISO 8601 in UTC ("2025-03-01T14:05:09Z"); empty: never
    CheckEvidence last_evidence;  // of the last check, when it failed
    bool evidence_shown = false;  // `hpclab hint` has shown it (each check's once)
};

// Told, in one line, what load() had to do about a file it could not read.
using ProgressWarning = std::function<void(const std::string&)>;
// The default: "hpclab: <message>" on stderr.
void warn_on_stderr(const std::string& message);

class Progress {
public:
    // The progress of the course at `root`. A missing file is an empty
    // progress. A file that is not valid progress is moved aside to
    // progress.json.corrupt (never over an older copy), `warn` is told, and
    // the progress starts empty.
    static Progress load(const std::filesystem::path& root, const ProgressWarning& warn = warn_on_stderr);
    // Writes the whole file (a temporary file, then a rename): a reader
    // sees the old progress or the new one, never half of it. Throws
    // std::runtime_error (std::filesystem::filesystem_error for the folder)
    // when it cannot write.
    void save() const;

    // The lab's entry, created empty on first use.
    LabProgress& lab(std::string_view id);
    // The lab's entry, or nullptr when the lab has none.
    const LabProgress* find(std::string_view id) const;
    const std::map<std::string, LabProgress, std::less<>>& labs() const { return labs_; }

    const std::filesystem::path& file() const { return file_; }
    static std::filesystem::path file_of(const std::filesystem::path& root);

private:
    std::filesystem::path file_;
    std::map<std::string, LabProgress, std::less<>> labs_;
};

// What `hpclab check` calls after judging a lab: the verdict's name (the
// lab's worst task verdict), whether it passed, and the time, saved at once.
// A pass sets `solved` for good; the hints shown are left as they are.
// Throws as save() does.
// `evidence`: the finding that decided a failing check (empty for a pass).
void record_check(const std::filesystem::path& root, std::string_view lab, std::string_view verdict_name, bool passed,
                  const CheckEvidence& evidence = {}, const ProgressWarning& warn = warn_on_stderr);

// Whether `hpclab hint` gives the last check's evidence before the next hint
// of the ladder: that check failed, its deciding finding is kept, and it has
// not been shown yet (once per check: the next call goes on with the ladder).
bool evidence_hint_due(const LabProgress& l);

// Now, as ISO 8601 in UTC: "2025-03-01T14:05:09Z".
std::string iso_time_now();

}  // namespace hpclab
