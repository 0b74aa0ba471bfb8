// Lab results as a check makes them, timed calls included: a LabCheck of
// the verdicts and times given, its grade record written by the grader's
// own grade_record, and lab_result_of over both (what the leaderboard and
// results.json read, with no GPU).
#pragma once

#include "check/grade_record.h"
#include "intake/class_folder.h"
#include "grade/lab_result.h"
#include "test_support.h"

#include <map>
#include <string>
#include <vector>

namespace hpclab::test {

struct TimedTask {
    Verdict verdict = Verdict::pass;
    std::vector<double> student_ms;  // empty: the task was not timed
};

inline GpuInfo named_gpu(const std::string& name)
{
    GpuInfo g;
    g.present = true;
    g.name = name;
    g.driver_version = 13000;
    return g;
}

// `sub`: the student's file as discover_class found it; `tasks`: by task id
// (a task not named passes, untimed).
inline LabResult timed_result(const std::string& student, const Submission& sub, const std::map<std::string, TimedTask>& tasks,
                              const GpuInfo& gpu, double check_seconds = 10)
{
    LabCheck c {.lab = sub.lab, .source = sub.file, .gpu = gpu, .seed = 1, .total_s = check_seconds};
    c.overall = Verdict::pass;
    for (const TaskInfo& t : c.lab->tasks) {
        const auto given = tasks.find(t.id);
        const TimedTask task = given == tasks.end() ? TimedTask {} : given->second;
        TaskCheck tc {.task = &t};
        tc.verdict = {t.id, task.verdict, {task.verdict, task.verdict == Verdict::pass ? "" : "not this time", "", ""}, {}};
        if (!task.student_ms.empty())
            tc.timing = Timing {.baseline = "bench", .student_ms = task.student_ms, .baseline_ms = task.student_ms,
                                .ratio = 1, .threshold = 1};
        if (task.verdict != Verdict::pass) c.overall = task.verdict;
        c.tasks.push_back(std::move(tc));
    }
    return lab_result_of(c, student, sub.file.parent_path(), sub.content_hash, grade_record(c, Toolchain {}));
}

}  // namespace hpclab::test
