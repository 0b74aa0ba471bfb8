// What the machine code of the kernels a task launched says against the
// lesson (run/sass.h, read by cuobjdump when hpclab built the program):
// hello's kernel prints with printf, a shared-memory kernel reads the shared
// memory it declares (inside its loop, where the lesson's steps are one).
// Judged only where every launched kernel's code is known and tells for
// sure: a call the listing does not name, or a load through a generic
// pointer, may be the thing looked for, and then nothing is said.
#pragma once

#include "check/check.h"
#include "run/program_facts.h"

#include <vector>

namespace hpclab {

std::vector<Finding> findings_of_code(const TaskInfo& task, const ProgramFacts& facts,
                                      const std::vector<wire::KernelRecord>& launches);

}  // namespace hpclab
