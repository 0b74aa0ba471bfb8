// hpclab's commands. Each returns an exit status (context.h).
#pragma once

#include "context.h"
#include "view/run_view.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {
struct GradeClassRequest;
}

namespace hpclab::cli {

struct RunArgs {
    std::string lab;                 // empty with --all
    bool all = false;
    Variant variant = Variant::student;
    std::string task;                // empty: every task
    std::map<std::string, std::int64_t> sizes;  // given size options
    bool all_sizes = false;
    bool big = false;
    std::optional<std::uint64_t> seed;
    std::string image;               // --image
    std::string output;              // --output
    std::string json;                // --json (with --all)
};

struct CheckArgs {
    std::string lab;
    Variant variant = Variant::student;
    std::string file;       // judge this file instead of the lab's
    std::string task;
    std::optional<std::uint64_t> seed;
    bool no_sanitizer = false, no_timing = false, big = false, quiet = false;
    bool profile = false, no_profile = false;  // every timed task once more under ncu; none
    bool no_sandbox = false;  // run as on a student's own machine, on purpose
    std::vector<std::string> needs;  // sandbox, cgroup, ncu: skipped (77) without them (unmet_need)
    std::string expect;     // a verdict name: exit 0 iff the check gives it
    std::string expect_profile;  // a measure: and the profiler's sentence of a slow task is that measure's
    std::string json;       // also write the grade record here
};

struct BenchArgs {
    std::vector<std::string> labs;      // empty: every lab with a sweep in its lab.json
    std::string task;                   // empty: every timed task
    std::vector<std::string> variants;  // empty: every variant
    std::map<std::string, std::vector<std::int64_t>> sizes;  // size options: replace the sweep
    std::optional<int> reps;
    bool quick = false;
    std::string variants_dir;           // empty: <course>/bench
    bool build_only = false;
    std::string csv, json;              // also write the rows here
    std::string report;                 // render this results file instead of measuring
    bool markdown = false;
    std::vector<std::string> update;    // with --report: rewrite these documents' generated parts (a folder: its .md)
    std::string plot;                   // with --report: an SVG plot per lab task into this folder
    std::string command_line;           // for the results' header
};

struct ImageArgs {
    std::string input;      // a PGM file
    std::string output;     // .png or .pgm
    std::string reference;  // a lab: its CPU reference applied to the image first
};

// hpclab grade's arguments are the grading's request (grade/grade_class.h).
using GradeArgs = GradeClassRequest;

struct CalibrateArgs {
    std::vector<std::string> labs;  // empty: every lab with a speed threshold
    int reps = 3;                   // checks of each file
    std::string config;             // the course config to write; empty: the course's course-config.json
};

int cmd_list(Context& ctx, bool markdown, const std::string& lab);
// hpclab calibrate: the speed thresholds measured on this GPU, into the course config.
int cmd_calibrate(Context& ctx, const CalibrateArgs& args);
// hpclab grade: a class's folder into a gradebook, resumable; with --slurm,
// a job array of chunks instead. hpclab merge: the chunks into one book.
int cmd_grade(Context& ctx, const GradeArgs& args);
int cmd_merge(Context& ctx, const std::string& out);
// hpclab export-student-kit: the course as students get it (kit/student_kit.h).
int cmd_export_kit(Context& ctx, const std::string& out, const std::string& architectures);
int cmd_check(Context& ctx, const CheckArgs& args);
// A check's exit status: its verdict's, or with --expect (printed) 0 when it is the one expected, 1 when
// not, 77 when nothing could run or it was inconclusive (too close to call here: not judged, not failed).
int exit_of_check(Context& ctx, Verdict got, std::optional<Verdict> expect);
int cmd_info(Context& ctx);
// The verdict table for people; with a file, as CMake variables for the tests.
int cmd_verdicts(const std::string& cmake_file);
int cmd_build(Context& ctx, const std::string& lab, Variant v);
int cmd_run(Context& ctx, const RunArgs& args);
// hpclab bench: measures (asserting nothing about time); with --report,
// renders a results file instead (no GPU needed).
int cmd_bench(Context& ctx, const BenchArgs& args);
int cmd_bench_report(const BenchArgs& args);
// bench/'s variants as a table; with a file, as CMake variables for the tests.
int cmd_variants(Context& ctx, const std::string& cmake_file);
// hpclab image: a PGM as a PNG (or PGM), through a lab's CPU reference if asked.
int cmd_image(Context& ctx, const ImageArgs& args);
// Which sizes a selftest runs (check/lab_run.h's BigSizes): the big ones are slow.
int cmd_selftest(Context& ctx, const std::string& lab, bool skeleton, BigSizes big);

// The student's loop: hints one at a time, the skeleton back, a check on every save.
enum class HintAction { next, all_shown, start_over };
int cmd_hint(Context& ctx, const std::string& lab, HintAction action);
int cmd_reset(Context& ctx, const std::string& lab);
int cmd_watch(Context& ctx, const std::string& lab);  // empty lab: the first one not solved

// `hpclab hint <lab>`'s step, which watch's h key takes too: prints the lab's
// next hint (the last one again once all are shown) and records it.
void show_next_hint(const Context& ctx, const LabInfo& lab);

}  // namespace hpclab::cli
