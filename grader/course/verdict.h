// The verdict on a task: one pure function turns all the evidence a check
// gathered (builds, runs, traces, sanitizer reports, timings) into one
// verdict, in a fixed order of precedence, with a message a student can act
// on. Unit-tested on the CPU; nothing here touches a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// In order of precedence: when several apply, the first one listed wins
// (with one exception, see decide()).
enum class Verdict {
    grader_error,      // hpclab could not judge: never the student's fault
    compile_error,
    time_limit,        // still running at the lab's wall limit
    crash,             // a signal, or the program ended before it finished
    cuda_error,        // the student's cudaSafeCall/cudaCheckError stopped the program
    gpu_fault,         // a CUDA error left behind by the student's kernels
    output_limit,      // printed more than hpclab keeps
    no_output,         // output elements never written
    input_modified,    // the code wrote into an input
    out_of_bounds,     // a write past an end of a buffer (guard zones)
    wrong_answer,      // an element, a return value or a printed line is wrong
    not_on_gpu,        // no kernel ran: the work was done on the host
    wrong_launch,      // the launch configuration is not the one the lesson asks for
    no_shared_memory,  // the task asks for shared memory and the kernels use none
    memory_leak,       // device memory allocated by the call was not freed
    memcheck,          // compute-sanitizer memcheck: an invalid access
    race,              // compute-sanitizer racecheck: a shared-memory data race
    too_slow,          // the speed ratio is below the lab's threshold
    inconclusive,      // the ratio's spread straddles the threshold: rerun
    suspicious,        // faster than the hardware can move the bytes: to a person
    pass,
    not_run,           // compiled, but nothing could run (no GPU)
};

std::string_view verdict_name(Verdict v);                   // "wrong_answer"
std::optional<Verdict> verdict_from_name(std::string_view);  // for --expect and the broken set
std::string_view verdict_title(Verdict v);                  // "wrong answer", for people
bool is_failure(Verdict v);                                 // everything but pass and not_run

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

// The verdict of one task. The most serious finding wins, in the order of
// Verdict; except that a sanitizer finding wins over a wrong answer, an
// out-of-bounds write or missing output of the same task: it names the line
// that causes them (a race explains outputs that change from run to run).
TaskVerdict decide(const TaskEvidence& evidence);

// The worst of several tasks' verdicts (for the exit status and a summary).
Verdict worst(const std::vector<TaskVerdict>& tasks);

}  // namespace hpclab
