// A class graded in local chunks, one process per GPU (grade/class_chunks.h):
// each chunk's command and environment, all of them run at once, each one's
// log and summary kept, and a chunk's process ending with the grading that
// started it. On the CPU with a stand-in for hpclab (a shell script that
// says what it was given); the real chunks on two GPUs: scripts/gpu-suite.sh, part gpus.
#include "grade/class_chunks.h"
#include "grade/grade_class.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::contains;
using hpclab::test::course_root;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

GpuInfo gpu(int index)
{
    GpuInfo g;
    g.present = true;
    g.index = index;
    g.name = "stand-in";
    g.uuid = "GPU-stand-in-" + std::to_string(index);
    return g;
}

LocalChunks two_chunks(const fs::path& hpclab, const fs::path& out)
{
    return {.hpclab = hpclab, .course_root = "/course", .submissions = "/class", .out = out, .seed = 42,
            .gpus = {gpu(0), gpu(3)}, .grade_flags = {"--no-timing", "--jobs", "4"}};
}

}  // namespace

TEST_CASE("grade chunks: chunk k grades its share of the class on its GPU, into its own folder, with the grading's flags")
{
    const LocalChunks c = two_chunks("/opt/hpclab", "/out");
    const ProcessSpec p = local_chunk_process(c, 1);
    REQUIRE(p.argv.size() > 5);
    CHECK(p.argv[4] == "/out/chunks/1/grade.log");  // the shell's: everything to the log, as it comes
    CHECK(std::vector<std::string>(p.argv.begin() + 5, p.argv.end()) ==
          std::vector<std::string> {"/opt/hpclab", "grade", "/class", "--out", "/out/chunks/1", "--chunk", "1/2", "--seed",
                                    "42", "--gpus", "3", "--no-timing", "--jobs", "4"});
    CHECK(std::count(p.set_env.begin(), p.set_env.end(), std::pair<std::string, std::string> {"HPCLAB_ROOT", "/course"}) == 1);
    CHECK(std::count(p.set_env.begin(), p.set_env.end(),
                     std::pair<std::string, std::string> {"HPCLAB_CHUNK_PARENT", std::to_string(getpid())}) == 1);
    CHECK(p.wall_limit_s > 24 * 3600);  // a class takes what it takes
}

TEST_CASE("grade chunks: a chunk whose GPU went out of service gets its own command on another GPU, for a shell")
{
    LocalChunks c = two_chunks("/opt/hpc lab", "/out");
    GpuInfo other = c.gpus.at(0);
    other.index = 7;
    CHECK(local_chunk_command(c, 1, other) ==
          "'/opt/hpc lab' 'grade' '/class' '--out' '/out/chunks/1' '--chunk' '1/2' '--seed' '42' '--gpus' '7' "
          "'--no-timing' '--jobs' '4'");
    CHECK(c.gpus.at(1).index == 3);  // the grading's own chunks unchanged
}

TEST_CASE("grade chunks: every chunk runs, each one's log and summary kept, a failing one said")
{
    TempDir d;
    // The stand-in: writes what it was given into its --out folder, prints
    // what a grading prints, and fails for chunk 1.
    const fs::path stand_in = d.write("hpclab", "#!/bin/sh\n"
                                                "out=$4; mkdir -p \"$out\"\n"
                                                "echo \"$@\" > \"$out/argv\"\n"
                                                "echo \"$HPCLAB_CHUNK_PARENT\" > \"$out/parent\"\n"
                                                "echo '  [1/1] ada vecadd3: pass'\n"
                                                "echo 'Graded 1 files: compile 1s wall'\n"
                                                "echo 'hpclab: a note' >&2\n"
                                                "[ \"$6\" = 1/2 ] && exit 4\n"
                                                "exit 0\n");
    fs::permissions(stand_in, fs::perms::owner_exec, fs::perm_options::add);
    const std::vector<LocalChunkEnd> ends = run_local_chunks(two_chunks(stand_in, d.path() / "out"));
    REQUIRE(ends.size() == 2);
    for (int k = 0; k < 2; ++k) {
        CAPTURE(k);
        const LocalChunkEnd& e = ends[static_cast<std::size_t>(k)];
        const fs::path folder = d.path() / "out" / "chunks" / std::to_string(k);
        CHECK(e.chunk == k);
        CHECK(e.gpu.uuid == (k ? "GPU-stand-in-3" : "GPU-stand-in-0"));
        CHECK(contains(read_text_file(folder / "argv").value_or(""), fmt::format("--chunk {}/2 --seed 42", k)));
        CHECK(read_text_file(folder / "parent").value_or("") == std::to_string(getpid()) + "\n");
        CHECK(e.log == folder / "grade.log");
        CHECK(contains(read_text_file(e.log).value_or(""), "[1/1] ada vecadd3: pass"));
        CHECK(e.summary == std::vector<std::string> {"Graded 1 files: compile 1s wall", "hpclab: a note"});
    }
    CHECK(ends[0].exit_code == 0);
    CHECK(ends[0].how == "exit 0");
    CHECK(ends[1].exit_code == 4);
    CHECK(ends[1].how == "exit 4");
}

TEST_CASE("grade chunks: a chunk's process ends with the grading that started it, and keeps running while it runs")
{
    for (const bool parent_alive : {true, false}) {
        CAPTURE(parent_alive);
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            signal(SIGTERM, SIG_DFL);  // not doctest's handler: the signal itself is the answer
            // As started by a grading: its parent's pid, or one that is not its parent (gone).
            setenv("HPCLAB_CHUNK_PARENT", std::to_string(parent_alive ? getppid() : getppid() + 100000).c_str(), 1);
            end_with_parent_grading();
            _exit(std::getenv("HPCLAB_CHUNK_PARENT") ? 2 : 0);  // not passed on to what it starts
        }
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        if (parent_alive) {
            CHECK(WIFEXITED(status));
            CHECK(WEXITSTATUS(status) == 0);
        } else {
            CHECK(WIFSIGNALED(status));
            CHECK(WTERMSIG(status) == SIGTERM);
        }
    }
}

namespace {

// grade_class on `gpus` stand-in GPUs, in a process of its own (the
// grading sets the sandbox policy of its whole process): its exit status,
// 0 when every chunk ended well and complete, 2 for a refused request. The
// chunks run the real hpclab, which finds no GPU (none visible): their
// checks say not_run, which answers for a file as a GPU's verdict does.
int grade_in_child(const GradeClassRequest& r, int gpus)
{
    const pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        setenv("CUDA_VISIBLE_DEVICES", "", 1);
        setenv("HPCLAB_STATE", (fs::temp_directory_path() / "hpclab-cpu-tests-state").c_str(), 1);
        const Toolchain tc = Toolchain::configured();
        const GradeClassHost host {.catalog = catalog(), .toolchain = tc, .probe_gpus = [gpus] {
                                       std::vector<GpuInfo> all;
                                       for (int i = 0; i < gpus; ++i) all.push_back(gpu(i));
                                       return all;
                                   },
                                   .hpclab = HPCLAB_EXE};
        try {
            const GradeClassOutcome o = grade_class(r, host);
            _exit(o.chunk_ends.size() == static_cast<std::size_t>(gpus) && !o.failed_to_save() && o.incomplete_chunks.empty()
                      ? 0
                      : 1);
        } catch (const GradeClassError& e) {
            _exit(e.kind == GradeClassError::Kind::usage ? 2 : 4);
        } catch (...) {
            _exit(5);
        }
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("grade chunks: --gpus 0,1 grades a chunk of the class per GPU, merged into the book one grading gives")
{
    if (!Toolchain::configured().available()) {
        MESSAGE("skipped: no CUDA toolchain to build the class with");
        return;
    }
    TempDir d;
    const std::string hello = read_text_file(course_root() / "solutions/hello/hello.cu").value();
    for (const char* student : {"ada", "ben", "cy"}) d.write(std::string("class/") + student + "/hello.cu", hello + "// " + student + "\n");
    GradeClassRequest r {.submissions = (d.path() / "class").string(), .out = (d.path() / "out").string(), .seed = 7,
                         .jobs = 1, .gpus = "0,1", .no_sandbox = true};
    REQUIRE(grade_in_child(r, 2) == 0);
    const auto settings = read_settings(GradeFolder(d.path() / "out"));
    REQUIRE(settings);
    CHECK(settings->chunks == 2);
    // Each chunk graded its own students in its own folder (students_of_chunk: ada; ben and cy).
    CHECK(GradeFolder(d.path() / "out/chunks/0").load("ada", "hello"));
    CHECK_FALSE(GradeFolder(d.path() / "out/chunks/0").load("ben", "hello"));
    CHECK(GradeFolder(d.path() / "out/chunks/1").load("cy", "hello"));
    CHECK(fs::exists(d.path() / "out/chunks/1/grade.log"));
    // The book has every chunk's verdicts (a file with no result would read not_graded).
    const std::string verdicts = read_text_file(d.path() / "out/verdicts.csv").value_or("");
    for (const char* student : {"ada", "ben", "cy"})
        CHECK(contains(verdicts, std::string("\n") + student + ",hello,hello,not_run,"));

    // Refused, the folder left as it was: one student on several GPUs, and another number of chunks.
    const std::string kept = read_text_file(d.path() / "out/grading.json").value_or("");
    GradeClassRequest one = r;
    one.student = "ada";
    CHECK(grade_in_child(one, 2) == 2);
    GradeClassRequest three = r;
    three.gpus = "all";
    CHECK(grade_in_child(three, 3) == 2);
    CHECK(read_text_file(d.path() / "out/grading.json").value_or("") == kept);
}
