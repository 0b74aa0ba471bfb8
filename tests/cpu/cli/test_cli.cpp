// hpclab's command line, run as a program: the commands that need no GPU
// work, and every bad input gives one clear message and exit status 2
// before anything is built or run. No GPU is visible to these runs, so
// they behave the same everywhere.
#include "course/verdict.h"
#include "gpu/gpu_probe.h"
#include "test_support.h"
#include "util/parallel.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <thread>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;

namespace {
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }
}  // namespace

TEST_CASE("cli: list shows every lab in course order")
{
    const ProcessResult r = run_hpclab({"list"});
    CHECK(r.exit_code == 0);
    std::size_t pos = 0;
    for (const auto& lab : catalog().labs()) {
        const std::size_t at = r.out.find(" " + lab.id + " ", pos);
        CHECK_MESSAGE(at != std::string::npos, lab.id, " missing or out of order");
        if (at != std::string::npos) pos = at;
        CHECK(has(r.out, lab.title));
    }
}

TEST_CASE("cli: no command, or an unknown one, is a usage error")
{
    CHECK(run_hpclab({}).exit_code == 2);
    const ProcessResult r = run_hpclab({"frobnicate"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown command 'frobnicate'."));
    CHECK(has(r.err, "hpclab --help"));
    const ProcessResult typo = run_hpclab({"chek", "vecadd3"});
    CHECK(typo.exit_code == 2);
    CHECK(has(typo.err, "Did you mean 'check'?"));
}

TEST_CASE("cli: check takes --profile or --no-profile, not both, and no --expect-profile with --no-profile")
{
    const ProcessResult r = run_hpclab({"check", "vecadd3", "--solution", "--profile", "--no-profile"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--no-profile"));
    CHECK(has(r.err, "--profile"));
    // Nor a sentence asked of a profile left out.
    const ProcessResult asked = run_hpclab({"check", "vecadd3", "--solution", "--no-profile", "--expect-profile", "lanes_per_warp"});
    CHECK(asked.exit_code == 2);
    CHECK(has(asked.err, "--expect-profile"));
}

TEST_CASE("cli: an unknown lab is refused, with the list and a suggestion")
{
    const std::string near = catalog().labs().back().id;
    const std::string typo = near.substr(0, near.size() - 1);
    for (const char* cmd : {"run", "build", "selftest"}) {
        std::vector<std::string> args = {cmd, typo};
        if (std::string(cmd) == "selftest") args.push_back("--solution");
        const ProcessResult r = run_hpclab(args);
        CAPTURE(cmd);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "unknown lab '" + typo + "'"));
        CHECK(has(r.err, "Did you mean '" + near + "'?"));
    }
}

TEST_CASE("cli: bad sizes are refused before anything runs")
{
    // The first lab with a parameter.
    const LabInfo* with_param = nullptr;
    for (const auto& l : catalog().labs())
        if (!l.params.empty()) {
            with_param = &l;
            break;
        }
    REQUIRE(with_param);
    const ParamInfo& p = with_param->params.front();
    const std::string opt = "--" + p.name;

    ProcessResult r = run_hpclab({"run", with_param->id, opt, "0"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "out of range"));
    r = run_hpclab({"run", with_param->id, opt, std::to_string(p.max + 1)});
    CHECK(r.exit_code == 2);
    r = run_hpclab({"run", with_param->id, opt, "lots"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, opt + ": 'lots' is not a number"));
    r = run_hpclab({"run", with_param->id, "--no-such-size", "3"});
    CHECK(r.exit_code == 2);
    r = run_hpclab({"run", with_param->id, "--task", "no_such_task"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "has no task 'no_such_task'"));
    const std::string task = with_param->tasks.front().id;
    r = run_hpclab({"check", with_param->id, "--task", task + "x"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "Did you mean '" + task + "'?"));
    r = run_hpclab({"run", with_param->id, "--all-sizes", opt, "5"});
    CHECK(r.exit_code == 2);
    r = run_hpclab({"run"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "which lab?"));
    r = run_hpclab({"selftest", with_param->id});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--solution or --skeleton"));
}

TEST_CASE("cli: a size option of another lab is named as such")
{
    // A parameter that some lab has and another lab lacks.
    for (const auto& a : catalog().labs())
        for (const auto& p : a.params)
            for (const auto& b : catalog().labs())
                if (!b.find_param(p.name)) {
                    const ProcessResult r = run_hpclab({"run", b.id, "--" + p.name, "3"});
                    CHECK(r.exit_code == 2);
                    CHECK(has(r.err, "is not a size of lab " + b.id));
                    return;
                }
}

TEST_CASE("cli: image options: a missing, corrupt or misplaced image is refused clearly")
{
    const LabInfo* image_lab = nullptr;
    const LabInfo* other = nullptr;
    for (const auto& l : catalog().labs()) (l.image.empty() ? other : image_lab) = &l;
    REQUIRE(image_lab);
    REQUIRE(other);
    TempDir dir;
    ProcessResult r = run_hpclab({"run", image_lab->id, "--image", (dir.path() / "missing.pgm").string()});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "missing.pgm: no such file"));
    const auto corrupt = dir.write("corrupt.pgm", std::string("\x89PNG\r\n\x1a\n binary", 16));
    r = run_hpclab({"run", image_lab->id, "--image", corrupt.string()});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "not a PGM image"));
    const auto truncated = dir.write("short.pgm", "P5 10 10 255\nabc");
    r = run_hpclab({"run", image_lab->id, "--image", truncated.string()});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "truncated"));
    r = run_hpclab({"run", other->id, "--image", corrupt.string()});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "takes no image"));
}

TEST_CASE("cli: without a GPU, run compiles the lab, says so and exits 77 (skipped), after checking its arguments")
{
    // A few labs at a time: one after another, their compiles made this the
    // longest CPU test of the README's tests on an H200 (docs/results/
    // test-times-h200.txt, calls 9a and 9c) and among the longest of CI.
    std::vector<std::function<ProcessResult()>> runs;
    for (const auto& lab : catalog().labs()) runs.push_back([id = lab.id] { return run_hpclab({"run", id}); });
    const int at_once = std::max(2, static_cast<int>(std::thread::hardware_concurrency()) / 4);
    const std::vector<ProcessResult> results = run_bounded(std::move(runs), at_once);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const LabInfo& lab = catalog().labs()[i];
        const ProcessResult& r = results[i];
        CAPTURE(lab.id);
        CHECK(r.exit_code == 77);
#ifdef HPCLAB_HPC_H_PROBE  // built with nvcc: run compiled the lab before it found no GPU
        CHECK(has(r.err, "no GPU here"));
        CHECK(has(r.err, "your code compiles"));
        CHECK(has(r.out, "Building labs/" + lab.id));
#else
        CHECK(has(r.err, "cannot compile lab programs here"));
#endif
    }
    const ProcessResult all = run_hpclab({"run", "--all", "--solution"});
    CHECK(all.exit_code == 77);
    const ProcessResult st = run_hpclab({"selftest", catalog().labs().front().id, "--solution"});
    CHECK(st.exit_code == 77);
    CHECK(has(st.out, "skipped, no GPU"));
}

TEST_CASE("cli: a course folder without labs is a clear error")
{
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE, "list"};
    spec.set_env = {{"HPCLAB_ROOT", dir.path().string()}};
    const ProcessResult r = run_process(spec);
    CHECK(r.exit_code == 4);
    CHECK(has(r.err, "cannot read the labs"));
}

TEST_CASE("cli: list <lab> shows the lab's record from its metadata")
{
    for (const auto& lab : catalog().labs()) {
        const ProcessResult r = run_hpclab({"list", lab.id});
        CAPTURE(lab.id);
        CHECK(r.exit_code == 0);
        CHECK(has(r.out, lab.title));
        for (const auto& t : lab.tasks) {
            CHECK(has(r.out, "Task " + t.id + ": " + t.title));
            for (const auto& s : t.sizes) CHECK(has(r.out, s.why));
        }
    }
}

TEST_CASE("cli: check refuses bad input before building anything")
{
    const std::string lab = catalog().labs().front().id;
    ProcessResult r = run_hpclab({"check"});
    CHECK(r.exit_code == 2);
    r = run_hpclab({"check", "no_such_lab"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown lab"));
    r = run_hpclab({"check", lab, "--file", "/nonexistent/student.cu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "/nonexistent/student.cu: no such file"));
    r = run_hpclab({"check", lab, "--expect", "right_answer"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown verdict 'right_answer'"));
    r = run_hpclab({"check", lab, "--task", "no_such_task"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "has no task 'no_such_task'"));
    r = run_hpclab({"check", lab, "--solution", "--file", "x.cu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "not both"));
}

// Needs nvcc (not a GPU): compiled in only where the build has it.
#if defined(HPCLAB_HPC_H_PROBE)
TEST_CASE("cli: check --no-sandbox says once that it runs as on the student's own machine, and records it")
{
    TempDir dir;
    const auto bad = dir.write("broken.cu", "this is not C\n");
    const auto record = dir.path() / "record.json";
    const ProcessResult r = run_hpclab({"check", "vecadd3", "--file", bad.string(), "--no-sandbox", "--json", record.string()});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "No sandbox (--no-sandbox)"));
    std::ifstream in(record);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(has(text, "\"sandbox\": \"off: --no-sandbox\""));
}

TEST_CASE("cli: check --profile of a lab whose file is the whole program says that nothing of it is profiled")
{
    TempDir dir;
    const auto bad = dir.write("main.cu", "int main() { this is not C }\n");
    const ProcessResult r = run_hpclab({"check", "program", "--file", bad.string(), "--profile"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "--profile: this lab's file is the whole program"));
    CHECK(has(r.out, "Compile error in"));
}

TEST_CASE("cli: check of a file that does not compile says where, without a GPU too")
{
    TempDir dir;
    const auto bad = dir.write("broken.cu", "#include \"hpc.h\"\nvoid vecadd(const int *a, const int *b, int *c, int n)\n{\n"
                                            "    this is not C\n}\n");
    const ProcessResult r = run_hpclab({"check", "vecadd3", "--file", bad.string()});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "Compile error in"));
    CHECK(has(r.out, "broken.cu(4)"));
    CHECK(has(r.out, "COMPILE ERROR"));
}

TEST_CASE("cli: with no GPU driver, a check that expects a run's verdict skips before its compile, and compile_error still compiles")
{
    if (!no_gpu_driver()) {
        MESSAGE("a GPU driver is installed here: the skip before the compile is for machines without one");
        return;
    }
    TempDir dir;
    const auto bad = dir.write("broken.cu", "this is not C\n");
    ProcessResult r = run_hpclab({"check", "vecadd3", "--file", bad.string(), "--expect", "pass"});
    CHECK(r.exit_code == 77);  // a compile would have found the error
    CHECK(has(r.out, "pass is given only by a run on the GPU (not compiled)"));
    r = run_hpclab({"check", "vecadd3", "--file", bad.string(), "--expect", "compile_error"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "expected compile_error: yes"));
}

TEST_CASE("cli: a set-up problem is hpclab's (exit 4), never a compile error of the student's")
{
    // An architecture nvcc does not know, as a mistyped HPCLAB_CUDA_ARCHITECTURES gives.
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE, "check", "vecadd3", "--solution"};
    spec.wall_limit_s = 120;
    spec.set_env = {{"HPCLAB_ROOT", hpclab::test::course_root().string()},
                    {"HPCLAB_STATE", (std::filesystem::temp_directory_path() / "hpclab-cpu-tests-state").string()},
                    {"HPCLAB_CUDA_ARCHITECTURES", "999"},
                    {"CUDA_VISIBLE_DEVICES", ""}};
    ProcessResult r = run_process(spec);
    CHECK(r.exit_code == 4);
    CHECK(has(r.out, "a set-up problem, not your code"));
    CHECK_FALSE(has(r.out, "COMPILE ERROR"));
    spec.argv = {HPCLAB_EXE, "build", "vecadd3"};
    r = run_process(spec);
    CHECK(r.exit_code == 4);
    CHECK(has(r.err, "set-up problem"));
}

TEST_CASE("cli: a missing or mismatched entry point is named with the header's declaration")
{
    TempDir dir;
    const auto no_const = dir.write("no_const.cu", "#include \"hpc.h\"\nvoid vecadd(int *a, int *b, int *c, int n) {}\n");
    ProcessResult r = run_hpclab({"check", "vecadd3", "--file", no_const.string()});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "your file does not define vecadd as vecadd3.h declares it:"));
    CHECK(has(r.out, "void vecadd(const int *d_a, const int *d_b, int *d_c, int n);"));
    const auto empty = dir.write("empty.cu", "");
    r = run_hpclab({"check", "vecadd3", "--file", empty.string()});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "your file does not define vecadd as vecadd3.h declares it:"));
}

TEST_CASE("cli: any bytes in a source file: a judged check and a record, never an internal error")
{
    TempDir dir;
    // Latin-1 in a string the compiler quotes back (perch\xe9), and binary junk in a comment.
    const auto latin1 = dir.write("latin1.cu", std::string("#include \"hpc.h\"\n#error \"perch\xe9\"\n/* \x01\xff\xfe */\n"));
    const auto json = dir.path() / "record.json";
    ProcessResult r = run_hpclab({"check", "vecadd3", "--file", latin1.string(), "--json", json.string()});
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "COMPILE ERROR"));
    CHECK_FALSE(has(r.err, "internal error"));
    const std::string record = hpclab::read_text_file(json).value_or("");
    CHECK(has(record, "\"verdict\": \"compile_error\""));
    CHECK(has(record, "perch\xef\xbf\xbd"));  // the byte that is not UTF-8, as U+FFFD
}
#endif

TEST_CASE("cli: verdicts lists the table in order, and writes it for CMake")
{
    ProcessResult r = run_hpclab({"verdicts"});
    CHECK(r.exit_code == 0);
    std::size_t last = 0;
    for (const VerdictInfo& v : verdict_table()) {
        CAPTURE(v.name);
        const std::size_t at = r.out.find(std::string(v.name) + " ");
        REQUIRE(at != std::string::npos);
        CHECK(at >= last);  // in order of precedence
        last = at;
    }
    TempDir dir;
    const auto file = dir.path() / "verdicts.cmake";
    r = run_hpclab({"verdicts", "--cmake", file.string()});
    CHECK(r.exit_code == 0);
    const std::string text = hpclab::read_text_file(file).value_or("");
    CHECK(has(text, "set(HPCLAB_VERDICTS \"grader_error;compile_error;"));
    CHECK(has(text, "set(HPCLAB_TIMED_VERDICTS \"too_slow;inconclusive;suspicious;pass\")"));
}

TEST_CASE("cli: variants lists bench/'s variants, and writes them for CMake")
{
    ProcessResult r = run_hpclab({"variants"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "vecadd1    blocks_of_1024"));
    // A variant of several tasks: one column, padded as a whole.
    CHECK(has(r.out, "reduction  tuned                    reference  naive,tree,atomic      pass"));
    TempDir dir;
    const auto file = dir.path() / "variants.cmake";
    r = run_hpclab({"variants", "--cmake", file.string()});
    CHECK(r.exit_code == 0);
    const std::string text = hpclab::read_text_file(file).value_or("");
    const std::string course = HPCLAB_TEST_ROOT;
    CHECK(has(text, "set(HPCLAB_BENCH_VARIANT_vecadd1.blocks_of_1024_FILE \"" + course + "/bench/vecadd1/blocks_of_1024.cu\")"));
    CHECK(has(text, "set(HPCLAB_BENCH_VARIANT_vecadd1.blocks_of_1024_EXPECT \"wrong_launch\")"));
    CHECK(has(text, "set(HPCLAB_BENCH_VARIANT_matmul.cublas_LINK \"cublas\")"));
    CHECK(has(text, "set(HPCLAB_BENCH_VARIANT_PROBLEMS \"\")"));
}

TEST_CASE("cli: --version names hpclab's version and its CUDA compiler")
{
    const ProcessResult r = run_hpclab({"--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("hpclab 0.", 0) == 0);
    CHECK(has(r.out, "nvcc "));
}

TEST_CASE("cli: info names the compiler's version and every tool, found or missing")
{
    const ProcessResult r = run_hpclab({"info"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "hpclab:"));
    CHECK(has(r.out, "CUDA compiler:"));
#ifdef HPCLAB_HPC_H_PROBE
    CHECK(has(r.out, "(nvcc 1"));  // 12.x or 13.x
#endif
    CHECK(has(r.out, "Sanitizer:"));
    CHECK(has(r.out, "Launch records:"));
    CHECK(has(r.out, "hpclab-cpu-tests-state"));  // the tests' state folder, not the checkout's
}

TEST_CASE("cli: the ./hpclab wrapper works through a link (on PATH, say) as it does in place")
{
    TempDir dir;
    const auto link = dir.path() / "hpclab";
    std::filesystem::create_symlink(hpclab::test::course_root() / "hpclab", link);
    const auto version_of = [](const std::string& program) {
        ProcessSpec spec;
        spec.argv = {program, "--version"};
        spec.wall_limit_s = 60;
        return run_process(spec);
    };
    const ProcessResult direct = version_of((hpclab::test::course_root() / "hpclab").string());
    const ProcessResult linked = version_of(link.string());
    CHECK(linked.exit_code == direct.exit_code);  // 0 where ./setup built the course, 2 where it did not
    CHECK(linked.out == direct.out);
    CHECK(linked.err == direct.err);
}
