// The similarity report of a class: each lab's files handed in (not the
// skeleton as handed out) compared with each other and with the published
// solution, the skeleton subtracted. It reads the files again; a file gone
// since discovery is left out of the comparison (its grading says so).
#pragma once

#include "intake/class_folder.h"
#include "similarity/lab_similarity.h"

#include <vector>

namespace hpclab {

// The labs with a file handed in, in course order.
std::vector<LabSimilarity> class_similarity(const ClassFolder& cls, const Catalog& catalog);

}  // namespace hpclab
