// What a check's runs say about a task, as findings (course/verdict.h):
// a run's status and each call's checks, the CUPTI record of what the
// student's code launched against the lesson's launch rules, and
// compute-sanitizer's reports. check/decide.h picks the verdict from them.
#pragma once

#include "check/lab_check.h"
#include "check/plan.h"
#include "run/program_facts.h"

#include <string>
#include <vector>

namespace hpclab {

// The findings of one run (its status, and each call's checks and trace).
std::vector<Finding> findings_of_run(const TaskInfo& task, const SizeCase& size, const RunReport& report);
// What the CUPTI record of one call says about the lesson's launch rules.
std::vector<Finding> findings_of_trace(const TaskInfo& task, const Params& params, const wire::CallTrace& trace);
// The invariant device_finishes (course/invariants.h): the call copied back
// to the host more than its outputs there (`host_output_bytes`), past
// kCopyBackSpareBytes. Nothing when untraced or the task is opted out.
std::optional<Finding> finding_of_copies_back(const TaskInfo& task, std::uint64_t host_output_bytes,
                                              const wire::CallTrace& trace, const std::string& where);
// Whether a run's finding is one the GPU's other work could have made: a
// pipeline whose copies into the device ran beside none of its kernels may
// be the time slices other programs' contexts took (the streams solution's
// overlap at 2^24, selftested beside the README's other tests on an H200:
// docs/results/test-times-h200.txt, call 9b). Such a run is made again with
// the GPU alone before its finding stands (check/correctness.h, lab_run.h).
bool bent_by_load(const TaskInfo& task, const Params& params, const RunReport& report);
// One run judged alone, as `hpclab run` and `selftest` judge it: its
// findings, decided with the verdict table (check/decide.h).
TaskVerdict verdict_of_run(const TaskInfo& task, const Params& params, const RunReport& report);
// compute-sanitizer's errors in one run, as one finding (none when clean).
std::vector<Finding> findings_of_sanitizer(const SanitizerRun& run);

// What the program hpclab built shows before it runs: a library's kernels
// compiled in (the invariant own_code), no kernel where the task needs one.
std::vector<Finding> findings_of_program(const TaskInfo& task, const ProgramFacts& facts);

// The evidence about task `index` from the check's runs (`plan[j]` gave
// `reports[j]`, empty when skipped), into `into` (runs, sanitizer runs,
// the first traced call's launches, findings).
void gather_evidence(const LabInfo& lab, std::size_t index, const std::vector<PlannedRun>& plan,
                     std::vector<std::optional<RunReport>>& reports, TaskCheck& into);

// A kernel record for people: "add<<<(977,1,1), (1024,1,1)>>>, 0.071 ms, 4096 B shared".
std::string describe_launch(const wire::KernelRecord& k);
std::string demangle(const std::string& name);

}  // namespace hpclab
