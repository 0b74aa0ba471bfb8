// The labs' metadata: one lab.json per lab (labs/<id>/lab.json), read here
// and nowhere else. The CLI, the runner, the tests and the docs' tables all
// take titles, hints, tasks, sizes, tolerances and thresholds from it.
#pragma once

#include "course/invariants.h"
#include "course/lab_kind.h"
#include "course/params.h"
#include "course/profile_rules.h"

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hpclab {

struct ParamInfo {
    std::string name;
    std::string help;
    std::int64_t min = 1;
    std::int64_t max = 1;
};

struct SizeCase {
    Params params;
    std::string why;   // which edge of the lesson this size probes
    bool big = false;  // the largest buffer passes 2^31 bytes: slow, needs memory
};

struct Tolerance {
    enum class Kind { exact, relative };
    Kind kind = Kind::exact;
    double rtol = 0;  // |got - expected| <= atol + rtol * scale
    double atol = 0;
};

// How fast a task must be: its GPU time against a baseline measured in the
// same run, as a ratio. Calibrated on a real GPU; until then `calibrated` is
// false and the numbers are an estimate from the grading model's figures.
struct Threshold {
    // "reference": the same task of the lab's speed baseline program
    // (LabInfo::baseline_source); or the id of another task of it.
    std::string baseline;
    // Baseline time / task time must reach this: lab.json's, or the course
    // config's where `hpclab calibrate` measured another on the class's GPU
    // (Catalog::use_course_thresholds). Every check and grading reads this one.
    double min_speedup = 0;
    bool calibrated = false;
    std::string note;         // what lab.json's value was measured on
    double shipped = 0;       // lab.json's min_speedup, whatever is in effect
    std::filesystem::path set_by;  // the course config that set min_speedup; empty: lab.json
};

// A course config's thresholds (course/course_config.h): lab -> task -> min_speedup.
using CourseThresholds = std::map<std::string, std::map<std::string, double>>;

// What the CUPTI records of each call must show, for the lesson to count as
// done: the grid and block the lesson asks for, the shared memory of its
// cache, the facts of its technique (a refusal's: no kernel at all). (What every task's calls must show, whatever the
// lesson, is course/invariants.h's.)
struct LaunchExpectation {
    std::vector<std::string> grid;      // 3 entries: a number, a size parameter, or "*"; empty: any
    std::vector<std::string> block;
    // The lesson's cache per block (shared_memory tasks): at least this many
    // bytes of shared memory per thread of the block, plus `shared_extra`
    // (a halo), in some kernel of the call. 0: any shared memory will do.
    int shared_per_thread = 0;
    int shared_extra = 0;
    // The facts of the lesson's technique the calls must show
    // (course/invariants.h, LessonFact), in lab.json's order.
    std::vector<ShownFact> shows;
    // One thread per element (lab.json "one_thread_per": a size parameter
    // for each dimension of the launch, x first): no launch of a call has
    // more blocks in a dimension than ceil(p / its block's threads) + 1. An
    // upper bound only: fewer threads that each do more (a grid-stride loop,
    // int4 loads, a register tile) is another shape the lesson allows; more
    // is a grid that grows faster than n (<<<n, BLKDIM>>>). One spare block
    // because (n + BLKDIM) / BLKDIM is a harmless way to round up.
    std::vector<std::string> one_thread_per;

    // The task's entry for `f`; null when the task does not ask it.
    const ShownFact* asks(LessonFact f) const;
};

// One of a lab's classic mistakes (lab.json "mistakes"): what a student
// does, what makes it fail, and what hpclab says. Each is a file of the
// broken set, tests/broken/<lab>/<id>.cu, whose "// expect:" line is this
// verdict (a test holds them equal); the walkthrough's table of mistakes is
// `hpclab list <lab> --markdown` (a test keeps it in sync).
struct Mistake {
    std::string id;        // the broken file's name, without .cu
    std::string task;      // the task it breaks
    std::string did;       // what the student did, in their words
    std::string fails_at;  // the size, input or rule that makes it fail
    std::string verdict;   // a verdict's name (hpclab verdicts)
    std::string message;   // what the check says, in short
};

struct TaskInfo {
    std::string id;
    std::string entry;       // the function of the lab's header that it calls
    std::string title;
    std::string technique;   // "shared_memory" or "warp_shuffle" when the lesson asks for it, else empty
    std::string launch;      // the launch shape the lesson asks for, in words
    Tolerance tolerance;
    std::vector<SizeCase> sizes;
    // The size racecheck runs at (lab.json "racecheck"); empty: the one the
    // plan picks. Racecheck's cost grows with every shared-memory access: a
    // lab names the least size where its races show.
    std::optional<SizeCase> racecheck_size;
    Params demo;             // the size `hpclab run` uses when none is given
    Params timing;           // the size `hpclab check` times (default: the demo size)
    int timing_reps = 5;     // timed calls after the warm-up call
    bool timed = false;      // lab.json gives a "timing" section: `hpclab bench` measures the task
    // The sizes `hpclab bench` sweeps ("bench": {"sizes": [...]}), smallest
    // first; empty: the timing size alone.
    std::vector<Params> bench_sizes;
    LaunchExpectation expect;
    std::optional<Threshold> threshold;
    // What the profiler's measures of a slow file say, in the lesson's words
    // (lab.json "profile", course/profile_rules.h): the first that holds.
    std::vector<ProfileRule> profile;
    // What the task is worth in a class's gradebook (lab.json "points",
    // default 1); a course's grading config can weigh it otherwise.
    double points = 1;
    // The invariants this task is not judged by, each with lab.json's reason
    // ("opt_out"); every other one holds for it.
    std::map<Invariant, std::string> opted_out;
    bool judged_by(Invariant i) const { return !opted_out.count(i); }
};

// A lab of the kind "program" (lab.json "kind"): the student writes the
// whole program, main included, and no harness runs inside it. What its
// check compares the printed lines with (check/program_judge.h): hpclab's
// own query of the GPU, and its own timing of the lab's kernel, built from
// `kernel_header` (the same file the student's program includes).
struct ProgramRules {
    std::string kernel_header;   // in the lab's folder: the kernel both programs time
    // A time the student's program prints for the kernel (synchronised, or
    // with events) passes within this factor of hpclab's measurement, either way.
    double time_factor = 1.5;
    // The time printed without synchronisation is the launch alone: below
    // this fraction of hpclab's measurement of the kernel.
    double launch_fraction = 0.1;
    bool calibrated = false;
    std::string note;            // what the two numbers rest on
};

struct LabInfo {
    std::string id;
    // What the student writes, and so how hpclab builds, runs and judges it
    // (course/lab_kind.h); a program lab's rules in `program`.
    LabKind kind = LabKind::functions;
    const LabKindTraits& kind_traits() const { return lab_kind_traits(kind); }
    ProgramRules program;
    int order = 0;
    std::string title;
    std::string teaches;
    std::string course_program;
    std::string student_file;  // the .cu the student edits, same name in solutions/
    std::string header;        // the entry points and their contract
    std::string pointers;      // "host", "device" or "none": what the entry points take
    std::string image;         // an image in the lab's folder that `hpclab run` uses, if any
    std::vector<ParamInfo> params;
    std::vector<std::string> hints;  // gentle first, explicit last
    // The likely bug behind a verdict, in this lab's words ("no_output" -> "does the grid cover n?").
    std::map<std::string, std::string> feedback;
    std::vector<TaskInfo> tasks;
    // The profiler's rules of every timed task, after the task's own
    // (lab.json "profile" at the lab's level: course/profile_rules.h).
    std::vector<ProfileRule> profile;
    // Questions on the profile of the lab's program as given, which the
    // student's file answers (lab.json "answers": course/profile_rules.h).
    std::vector<AnswerAsked> answers;
    std::filesystem::path answers_program;  // the program as given, in the lab's folder
    std::vector<Mistake> mistakes;  // the classic mistakes, each a file of the broken set
    // lab.json "similarity": the score from which two files' likeness is
    // worth a person's look (similarity/lab_similarity.h LookScore); none:
    // `no_look` says why no score parts copies from independent work here.
    std::optional<double> look_from;
    std::string no_look;
    // CUDA_DEVICE_MAX_CONNECTIONS of every program of the lab (lab.json
    // "device_max_connections"; run_recipe.h cuda_env says why 1 by default).
    int device_max_connections = 1;
    double wall_limit_s = 20;      // per run of the lab program
    double big_wall_limit_s = 120; // per run at a big size

    std::filesystem::path lab_dir;       // labs/<id>
    std::filesystem::path solution_dir;  // solutions/<id>
    // lab.json's "speed_baseline": the program the thresholds are measured
    // against, bench/<id>/<speed_baseline>.cu; empty: the solution. In the
    // student kit, which has neither, baselines/<id>.o: the same, compiled.
    // baseline_source is empty where the lab's kind has no speed baseline
    // program (course/lab_kind.h: a whole program's kernel is timed by
    // hpclab from the lab's own header).
    std::string speed_baseline;
    std::filesystem::path baseline_source;
    std::filesystem::path doc;           // docs/<id>.md
    // lab.json's "skeleton_blob": the git blob of the course's own skeleton
    // (git hash-object labs/<id>/<file>), which `reset` restores whatever
    // the student committed since. Empty: the committed version.
    std::string skeleton_blob;

    std::filesystem::path student_source() const { return lab_dir / student_file; }
    std::filesystem::path solution_source() const { return solution_dir / student_file; }
    const TaskInfo* find_task(std::string_view id) const;
    const ParamInfo* find_param(std::string_view name) const;
    std::string task_ids() const;  // "naive, tiled": for messages
    // The message for a task this lab does not have: its tasks, and the
    // nearest one when `id` looks like a typo of it.
    std::string unknown_task(std::string_view id) const;
};

// Why `value` cannot be the size parameter `name` of `lab` (not one of its
// parameters, or out of its range), in a sentence; empty when it can.
std::string size_option_problem(const LabInfo& lab, const std::string& name, std::int64_t value);

// A lab.json that is missing, unreadable or incomplete: names the file and the field.
struct CatalogError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Catalog {
public:
    // Reads every labs/*/lab.json under `root`, sorted by order.
    static Catalog load(const std::filesystem::path& root);
    // Reads one lab.json (the folder names the lab).
    static LabInfo load_lab(const std::filesystem::path& root, const std::filesystem::path& lab_json);

    const std::vector<LabInfo>& labs() const { return labs_; }
    const LabInfo* find(std::string_view id) const;
    std::string ids() const;  // "hello, vecadd0, ..." for messages
    // The message for a lab the course does not have: the labs, and the
    // nearest one when `id` looks like a typo of it.
    std::string unknown_lab(std::string_view id) const;
    const std::filesystem::path& root() const { return root_; }
    // The one place a task's threshold in effect is decided: lab.json's,
    // except those `thresholds` names, which `file` sets. Replaces what an
    // earlier call set (a grading's --config replaces the default config).
    // Throws CatalogError for a task that has no threshold to replace.
    void use_course_thresholds(const CourseThresholds& thresholds, const std::filesystem::path& file);

private:
    std::filesystem::path root_;
    std::vector<LabInfo> labs_;
};

}  // namespace hpclab
