// The class at a glance, for the instructor: who was found and what was left
// out, pass rates per lab and task, the verdicts given, the failing files
// that share their evidence (top_bugs.h), the speedups as a
// picture (speedups.svg: a dot per student on a log scale, the threshold
// marked) and their audit (threshold_audit.h), the submissions a person must
// look at before marks go out, and where the grading time went.
#pragma once

#include "intake/class_folder.h"
#include "grade/gradebook.h"

#include <string>
#include <vector>

namespace hpclab {

// "N entries: G graded, [K the skeleton as handed out,] I ignored (...)":
// the closing count of a class folder, each entry in one of them.
std::string class_folder_count(const ClassFolder& cls);
std::string class_report_markdown(const ClassFolder& cls, const Gradebook& book, const std::vector<LabResult>& results);
std::string speedups_svg(const Gradebook& book);

}  // namespace hpclab
