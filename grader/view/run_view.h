// What the run-like commands (run, selftest) print of a run of one task at
// one size (check/lab_run.h), the way the course's programs do, judged with
// the verdict table.
#pragma once

#include "check/evidence.h"
#include "course/verdict.h"
#include "run/task_runner.h"
#include "util/rate_text.h"

#include <cstdio>
#include <string>

namespace hpclab {

// The exit status of a run's verdict (a size that does not fit is a usage error).
int exit_of(const TaskVerdict& v, const RunReport& r);
// One word or two for a table: OK, or the verdict's title in capitals.
std::string verdict_word(const TaskVerdict& v);

// "1.64 TB/s", "9.10 TFLOP/s", or "-" when the task has no work model.
std::string throughput(const RunReport& r);
// A full report of one run, for a person.
void print_run(std::FILE* out, const RunReport& r, const TaskVerdict& v);

}  // namespace hpclab
