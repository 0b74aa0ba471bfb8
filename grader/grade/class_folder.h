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

struct Student {
    std::string id;  // the folder's name
    std::filesystem::path folder;
    std::vector<Submission> submissions;  // in course order
};

struct Ignored {
    std::filesystem::path path;  // relative to the submissions folder
    std::string why;
};

struct ClassFolder {
    std::filesystem::path root;
    std::vector<Student> students;  // sorted by id
    std::vector<Ignored> ignored;
    int other_files = 0;  // files that are not .cu (headers, images, a labs/ copy's metadata): left alone, counted
};

constexpr std::uintmax_t kMaxSubmissionBytes = 1u << 20;

// Reads the folder; throws std::runtime_error when it is not a readable folder.
ClassFolder discover_class(const std::filesystem::path& root, const Catalog& catalog);

// The content hash hpclab keys a submission's results by.
std::uint64_t submission_hash(const std::string& bytes);

// Whether a folder's name can name a student's files and rows as it is.
bool usable_student_id(const std::string& name);

}  // namespace hpclab
