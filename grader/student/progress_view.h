// How the student stands, for people: a mark and a line per lab, and a bar
// for the course. `hpclab list` prints them; watch says the same words.
#pragma once

#include "course/lab_catalog.h"
#include "student/progress.h"

#include <string>

namespace hpclab {

// '[x]' solved, '[!]' the last check failed, '[ ]' not tried (or never judged).
std::string progress_mark(const LabProgress* p);
// "solved; hints used: 1 of 4", "last check failed: wrong answer; hints used: 0 of 3", ...
std::string progress_line(const LabInfo& lab, const LabProgress* p);
// "[#####....] 5 of 9 labs solved": one cell per lab.
std::string progress_bar(const Catalog& catalog, const Progress& progress);
// The first lab in course order that is not solved, or nullptr when all are.
const LabInfo* first_unsolved(const Catalog& catalog, const Progress& progress);

}  // namespace hpclab
