// The similarity report: a section of the class's report.md, with the
// pairs to look at side by side, and similarity.csv, a row per listed pair.
// Every student's name is escaped for where it goes.
#pragma once

#include "similarity/lab_similarity.h"

#include <string>
#include <vector>

namespace hpclab {

std::string similarity_markdown(const std::vector<LabSimilarity>& labs);

// lab,kind,student_a,student_b,score,shared_fingerprints,look,lines_a,lines_b
// kind: "pair" (two students), "solution" (a student and the published
// solution), "equals_solution" (the solution as written, layout and
// comments aside: student_b, score and lines empty).
std::string similarity_csv(const std::vector<LabSimilarity>& labs);

}  // namespace hpclab
