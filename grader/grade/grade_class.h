// `hpclab grade` from its request to its outcome, short of printing: the
// class found, its settings kept in the output folder, the files still to
// check, graded here on one GPU, as local chunks on several (one process
// per GPU, class_chunks.h) or written as a Slurm job array; then every
// output made again from the results on disk. The command parses the
// command line into a GradeClassRequest, calls grade_class and prints.
#pragma once

#include "grade/class_chunks.h"
#include "grade/class_grading.h"
#include "grade/class_run.h"
#include "intake/class_source.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hpclab {

struct GradeClassRequest {
    std::string submissions;
    std::string out;
    std::string config, roster;
    std::vector<std::string> roster_keys;
    std::optional<std::uint64_t> seed;
    std::string student;       // only this student, graded again
    bool again = false;        // every file graded again
    bool list_only = false;    // what is found and ignored, nothing graded
    int jobs = 0;              // compiles at once (0: the CPU cores)
    int checks_at_once = kDefaultChecksAtOnce;  // checks sharing a GPU at once (ClassRunOptions)
    std::string gpus;          // "0,1", "all"; empty: the first GPU, as check uses
    bool no_sanitizer = false, no_timing = false, no_sandbox = false;
    // The big sizes too (past 2^31 bytes or elements), where the GPU's memory
    // holds them: an index that wraps only there is a mistake a grade must see
    // (--no-big leaves them out).
    bool big = true;
    std::vector<std::string> needs;  // sandbox, cgroup: skipped without them (GradeClassHost::unmet_need)
    std::string chunk;         // "k/K": one chunk of a Slurm array or of a grading on several GPUs
    bool slurm = false;        // write the job array instead of grading
    int chunks = 4;
    std::string partition, time_limit = "02:00:00", gres = "gpu:1";
    int cpus = 8;              // with --slurm: CPUs per chunk (its compiles)
    bool submit = false;       // with --slurm: sbatch it too
    std::string expect;        // a CSV of student,lab,task,verdict: the book compared with it
};

// A request hpclab cannot carry out: a bad request or input (`usage`), or a
// machine that cannot grade (`setup`: no sandbox, no compiler, no sbatch).
struct GradeClassError : std::runtime_error {
    enum class Kind { usage, setup } kind;
    GradeClassError(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
};

// What the grading says before its checks begin.
struct GradingStart {
    std::uint64_t seed = 0;
    std::size_t files = 0;                  // to check
    std::vector<GpuInfo> gpus;              // one entry not present: no GPU
    std::size_t uncovered = 0;              // results of an earlier run to cover first
    std::vector<std::string> out_of_service;  // GPUs marked by an earlier run: "GPU 1 (name): why", then the mark's path
    bool turns_only_in_process = false;     // several GPUs, and the turns' lock files cannot be used
    std::vector<std::filesystem::path> chunk_logs;  // several GPUs: each chunk's log, written as it goes
};

// What the command lends the grading: the course, the machine's questions,
// and where it reports as it goes (each may be empty).
struct GradeClassHost {
    const Catalog& catalog;
    const Toolchain& toolchain;
    // The course config's thresholds in place of the catalog's (grade --config).
    std::function<void(const CourseThresholds&, const std::filesystem::path&)> use_course_thresholds;
    std::function<std::optional<std::string>(const std::vector<std::string>&)> unmet_need;
    std::function<void(const ClassSource&, const ClassFolder&)> on_found;
    std::function<void(const GradingStart&)> on_start;
    std::function<void(const ClassProgress&)> on_progress;
    // The machine's GPUs for --gpus (empty: probe_gpus) and the program each
    // local chunk runs (empty: this one): the tests stand in for both.
    std::function<std::vector<GpuInfo>()> probe_gpus;
    std::filesystem::path hpclab;
};

struct SlurmWritten {
    std::filesystem::path script;
    int chunks = 0;
    std::uint64_t seed = 0;
    std::string job;  // the job id sbatch gave; empty: not submitted
};

// The book against --expect's rows: as check --expect does, a row that
// could not run (no GPU) is neither right nor wrong.
struct ExpectedVerdicts {
    int rows = 0, unjudged = 0;
    std::vector<std::string> wrong;  // "expected ada vecadd3.add: pass, got wrong_answer"
};
ExpectedVerdicts compare_expected(const Gradebook& book, const std::string& file);

struct GradeClassOutcome {
    enum class Kind { listed, slurm_written, skipped, graded } kind = Kind::graded;
    std::string skipped_why;
    SlurmWritten slurm;
    GradingStart start;
    ClassRunTotals totals;                // graded here, on one GPU
    std::vector<LocalChunkEnd> chunk_ends;  // graded as local chunks, one per GPU
    std::vector<int> incomplete_chunks;   // of those: a file with no result, or a grader error
    std::vector<std::string> gpus_after;  // "GPU 0 after the grading: ..."
    std::vector<LabResult> results;       // the book points into them
    ClassOutputs outputs;
    std::optional<ExpectedVerdicts> expected;
    bool failed_to_save() const;          // a result unsaved or a chunk that did not end well
};

GradeClassOutcome grade_class(const GradeClassRequest& request, const GradeClassHost& host);

// hpclab merge: a Slurm grading's chunks' results merged into the class's
// outputs, under the folder's lock, with the grading's own config and its
// thresholds (host.use_course_thresholds). Throws GradeClassError (usage)
// for a folder that is no Slurm grading, or a class or config it cannot read.
struct MergedGrading {
    MergedChunks merged;
    int chunks = 0;
    std::string resubmit;  // the command that submits the incomplete chunks again (none: empty)
};
MergedGrading merge_grading(const std::filesystem::path& out_dir, const GradeClassHost& host);

}  // namespace hpclab
