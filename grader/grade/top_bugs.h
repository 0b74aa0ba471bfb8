// The class's top bugs (report.md): the failing files of each task grouped
// by their evidence, the largest groups first, so that an instructor sees
// the mistakes a class shares (and what to go over in the next lecture)
// instead of forty failing tests.
#pragma once

#include "grade/gradebook.h"

#include <string>
#include <vector>

namespace hpclab {

// The evidence a failing task's result rests on, as a key that two students'
// files with the same mistake share: the verdict, and the first two lines of
// its message (the sanitizer's report and its site's kernel, the first
// mismatch, the missing technique's fact) with every number made "#" - the
// elements, sizes, lines and addresses that differ from file to file; a slow
// file's profiler sentence too, numbers hidden (check/profile.h): the cause
// its counters show.
std::string evidence_signature(const TaskResult& result);

struct BugGroup {
    std::string column;                  // "matmul.tiled"
    std::string signature;
    std::vector<std::string> students;   // by id
    const TaskResult* example = nullptr; // the first student's
};

// Per column, the groups of two students or more, the largest first (then
// by the signature, so that a regrade lists them in the same order), at most
// `per_task` of them.
std::vector<BugGroup> top_bugs(const Gradebook& book, std::size_t per_task = 5);

// report.md's "Top bugs" section.
std::string top_bugs_markdown(const Gradebook& book);

}  // namespace hpclab
