// A class's submissions as an instructor hands them in: a folder per
// student, holding either a copy of the course's labs/ folder
// (<student>/labs/<lab>/<lab>.cu) or the lab files loose (<student>/<lab>.cu).
// What is found, and everything left out with the reason, so that the
// instructor can see that no submission was lost on the way.
#pragma once

#include "course/lab_catalog.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hpclab {

struct Submission {
    const LabInfo* lab = nullptr;
    std::filesystem::path file;    // absolute
    std::uint64_t content_hash = 0;  // of the bytes read at discovery
    bool unchanged_skeleton = false;  // the course's skeleton as handed out: not attempted
};

struct Ignored {
    std::filesystem::path path;  // relative to the submissions folder
    std::string why;             // and what to do about it
    const LabInfo* lab = nullptr;  // the lab it looks meant for (a near miss, a second copy), if any
};

struct Student {
    std::string id;  // the folder's name
    std::filesystem::path folder;
    std::vector<Submission> submissions;  // in course order
    // Files meant for a lab that has no file graded, and why each was not
    // (two copies, too large, UTF-16, a near-miss name, not where it goes):
    // the student's feedback says so rather than "nothing handed in".
    std::vector<Ignored> refused;
};

// Every entry under the submissions folder is in exactly one of:
// students' submissions (graded, or the skeleton), ignored (with why), or
// left_alone (files that are not .cu: headers, images, a labs/ copy's
// metadata). Folders walked into are none of them: their entries are.
struct ClassFolder {
    std::filesystem::path root;
    std::vector<Student> students;  // sorted by id
    std::vector<Ignored> ignored;   // sorted by path
    std::vector<std::filesystem::path> left_alone;  // relative to root, sorted
    std::size_t submissions() const;
    std::size_t entries() const { return submissions() + ignored.size() + left_alone.size(); }
};

constexpr std::uintmax_t kMaxSubmissionBytes = 1u << 20;

// Folders deeper than this in a student's folder are listed, not entered.
constexpr int kMaxFolderDepth = 12;

// Reads the folder; throws std::runtime_error when it is not a readable
// folder. Never follows a link, never opens what is not a regular file (a
// FIFO would block), never enters a hidden folder. `output`: hpclab's own
// output folder, when it lies inside (left out, as is any folder holding a
// grading's grading.json or lock).
ClassFolder discover_class(const std::filesystem::path& root, const Catalog& catalog,
                           const std::filesystem::path& output = {});

// The content hash hpclab keys a submission's results by.
std::uint64_t submission_hash(const std::string& bytes);

// Whether a folder's name can name a student's files and rows as it is.
bool usable_student_id(const std::string& name);

}  // namespace hpclab
