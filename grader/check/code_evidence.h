// What the machine code of the kernels a task launched says against the
// lesson (run/sass.h, read by cuobjdump when hpclab built the program):
// a shared-memory kernel reads the shared memory it declares, a
// warp_shuffle task's kernel exchanges registers within a warp, and the
// lesson facts a task asks that machine code shows (check/lesson_facts.h:
// printf in a kernel, shared reads in a loop, the constant bank read).
// Judged only where every launched kernel's code is known and tells for
// sure: a call the listing does not name, or a load through a generic
// pointer, may be the thing looked for, and then nothing is said.
#pragma once

#include "check/lab_check.h"
#include "run/program_facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// `source` is the student's file as handed in, `file_name` its name: each
// message names the kernel with the line where the file defines it.
std::vector<Finding> findings_of_code(const TaskInfo& task, const ProgramFacts& facts,
                                      const std::vector<wire::KernelRecord>& launches, std::string_view source = {},
                                      const std::string& file_name = {});

// The line (1-based) of `source` where the kernel `name` (demangled, without
// its parameters: "ns::rotate") is defined: its name followed by "(" in a
// declaration that says __global__, comments and strings aside. 0 when no
// such line is there (a kernel made by a macro, or defined in a header).
int kernel_definition_line(std::string_view source, std::string_view name);

}  // namespace hpclab
