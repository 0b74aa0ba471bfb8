// The verdicts a check can give, as one table: for each its name (for
// --expect, records and the broken set), its title (for people), the advice
// a student gets, its class, the exit status it gives, what grading and
// feedback do with it (its traits), and, by its place in the table, its
// precedence. Every command judges with this table; the
// function that picks a task's verdict from the evidence is check/decide.h.
#pragma once

#include "course/exit_status.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// In order of precedence: when several apply, the first one listed wins
// (with one exception, see check/decide.h). The table in verdict.cpp lists
// them in this order; a test keeps the two in step.
enum class Verdict {
    grader_error,      // hpclab could not judge: never the student's fault
    compile_error,
    tampering,         // what the program claims contradicts what hpclab saw (completion, trace, times)
    time_limit,        // still running at the lab's wall limit
    resource_limit,    // past the sandbox's memory, process or file-size limit
    crash,             // a signal, or the program ended before it finished
    cuda_error,        // the student's cudaSafeCall/cudaCheckError stopped the program
    gpu_fault,         // a CUDA error left behind by the student's kernels
    output_limit,      // printed more than hpclab keeps
    no_output,         // output elements never written
    input_modified,    // the code wrote into an input
    out_of_bounds,     // a write past an end of a buffer (guard zones)
    wrong_answer,      // an element, a return value or a printed line is wrong
    not_on_gpu,        // no kernel ran: the work was done on the host
    library_kernel,    // a library's kernel (CUB, Thrust, cuBLAS) does the task's work
    wrong_launch,      // the launch configuration is not the one the lesson asks for
    no_shared_memory,  // the task asks for shared memory and the kernels use none
    no_warp_shuffle,   // the task asks for warp shuffles and the compiled kernels have none
    not_released,      // something the call made (memory, a stream, an event, a graph) was left when it returned
    slow_copies,       // copies from pageable memory, or none beside other work (streams)
    memcheck,          // compute-sanitizer memcheck: an invalid access
    race,              // compute-sanitizer racecheck: a shared-memory data race
    wrong_measurement, // a measured answer (lab.json "answers") is not what hpclab measured
    too_slow,          // the speed ratio is below the lab's threshold
    inconclusive,      // the ratio's spread straddles the threshold: rerun
    suspicious,        // faster than the hardware can move the bytes: to a person
    pass,
    not_run,           // compiled, but nothing could run (no GPU)
};

// What kind of problem a verdict names: which part of the work to look at.
enum class VerdictClass {
    grader,     // not the student's: hpclab or the machine
    integrity,  // the program contradicted what hpclab observed: to a person
    build,      // the file does not compile
    run,        // the program did not run to its end (hang, crash, CUDA error)
    result,     // it ran, and what it wrote is wrong (or where it wrote)
    lesson,     // right results, not the way the lesson asks (launch, shared memory, frees)
    sanitizer,  // compute-sanitizer found an invalid access or a race
    speed,      // right, and the speed is the matter
    none,       // pass, or nothing judged
};

// What grading and feedback do with a verdict, besides its class.
struct VerdictTraits {
    bool held = false;  // held for a person: worth nothing until someone looks (gradebook, reports)
    // The file's last word: a resumed grading keeps it; else (hpclab's
    // failure, nothing run) the next run redoes it.
    bool final = true;
    bool hint = true;                 // the student's to fix: the feedback offers `hpclab hint`
    bool sanitizer_explains = false;  // a symptom: a sanitizer finding, where there is one, decides instead
    bool memcheck_locates = false;    // the program died: a memcheck finding names where
};

struct VerdictInfo {
    Verdict verdict;
    std::string_view name;    // "wrong_answer"
    std::string_view title;   // "wrong answer"
    VerdictClass kind;
    Exit exit_status;         // of a command whose check ends with this verdict
    VerdictTraits traits;
    std::string_view advice;  // the likely bug, for a student (a lab.json "feedback" entry overrides it)
};

// Every verdict, in order of precedence.
std::span<const VerdictInfo> verdict_table();
const VerdictInfo& verdict_info(Verdict v);

std::string_view verdict_name(Verdict v);
std::string_view verdict_title(Verdict v);
std::optional<Verdict> verdict_from_name(std::string_view name);  // for --expect and the broken set
std::string_view class_name(VerdictClass c);                      // "result"
bool is_failure(Verdict v);  // everything but pass and not_run
// A verdict a person looks at before it becomes a mark: what the program
// claimed contradicts what hpclab saw, a limit of the sandbox, a speed
// hpclab could not call, or nothing judged at all (VerdictTraits::held).
bool held_for_a_person(Verdict v);
bool is_final(Verdict v);  // VerdictTraits::final
int precedence(Verdict v);   // 0 first: the smaller wins

// One piece of evidence, with what it says in the student's words.
struct Finding {
    Verdict kind = Verdict::pass;
    std::string message;   // what went wrong, where (kernel, line, index, size)
    std::string hint;      // the likely bug for this class, in the lab's words when it has some
    std::string where;     // the size or the run it came from ("n=1000003")
};

// All the findings about one task, in any order.
struct TaskEvidence {
    std::string task;
    std::vector<Finding> findings;
};

struct TaskVerdict {
    std::string task;
    Verdict verdict = Verdict::pass;
    Finding reason;                  // the finding that decided (empty for pass)
    std::vector<Finding> also;       // the other kinds of failure, the first of each
};

}  // namespace hpclab
