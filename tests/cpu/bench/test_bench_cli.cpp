// hpclab bench on the command line: every bad input is one clear message and
// exit status 2 before anything is built (and no file is touched); without a
// GPU it says so and exits 77. No GPU is visible to these runs.
#include "bench/results.h"
#include "util/text_file.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;

namespace {

// Runs hpclab bench with `args`; REQUIREs exit 2 and returns stderr.
std::string usage_error(std::vector<std::string> args)
{
    args.insert(args.begin(), "bench");
    const ProcessResult r = run_hpclab(args);
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    return r.err;
}

std::string fixtures() { return (test::test_data() / "bench").string(); }

}  // namespace

TEST_CASE("bench cli: the command is listed in hpclab --help, and its own help names the options")
{
    ProcessResult r = run_hpclab({"--help"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "bench"));
    r = run_hpclab({"bench", "--help"});
    CHECK(r.exit_code == 0);
    for (const char* opt : {"--variants", "--reps", "--quick", "--csv", "--json", "--report", "--markdown", "--update", "--n"})
        CHECK(contains(r.out, opt));
}

TEST_CASE("bench cli: unknown labs, tasks, variants and sizes are refused")
{
    CHECK(contains(usage_error({"vecad3"}), "unknown lab 'vecad3'"));
    CHECK(contains(usage_error({"vecadd3", "--task", "tiled"}), "has a task 'tiled'"));
    CHECK(contains(usage_error({"vecadd3", "--variants", "solution,cublas"}), "no variant 'cublas'"));
    CHECK(contains(usage_error({"vecadd3", "--n", "0"}), "--n 0 is out of range for lab vecadd3"));
    CHECK(contains(usage_error({"vecadd3", "--n", "lots"}), "--n"));
    CHECK(contains(usage_error({"vecadd3", "--width", "64"}), "--width is not a size of lab vecadd3"));
    CHECK(contains(usage_error({"vecadd3", "matmul", "--n", "1024"}), "go with one lab"));
    CHECK(contains(usage_error({"rotation", "--width", "1,2", "--height", "1,2,3"}), "lists of different lengths"));
    CHECK(contains(usage_error({"vecadd3", "--reps", "0"}), "--reps must be between 1 and 63"));
    CHECK(contains(usage_error({"vecadd3", "--variants-dir", "/no/such/folder"}), "no such folder"));
}

TEST_CASE("bench cli: a variant file without its line, or with a bad one, is named")
{
    TempDir dir;
    dir.write("vecadd3/fast.cu", "__global__ void k() {}\n");
    CHECK(contains(usage_error({"vecadd3", "--variants-dir", dir.path().string()}),
                   "vecadd3/fast.cu: no '// hpclab-bench:' line"));
    dir.write("vecadd3/fast.cu", "// hpclab-bench: kind=quick tasks=add title=\"f\"\n");
    CHECK(contains(usage_error({"vecadd3", "--variants-dir", dir.path().string()}), "fast.cu:1: unknown kind 'quick'"));
}

TEST_CASE("bench cli: --report refuses a missing, binary or foreign file, and checks the options that go with it")
{
    TempDir dir;
    CHECK(contains(usage_error({"--report", (dir.path() / "none.json").string()}), "none.json: no such file"));
    const auto binary = dir.write("b.json", std::string("\x7f" "ELF\x02\x01\0\0", 8));
    CHECK(contains(usage_error({"--report", binary.string()}), "a binary file"));
    const auto foreign = dir.write("lab.json", R"({"id": "vecadd3"})");
    CHECK(contains(usage_error({"--report", foreign.string()}), "not a results file of hpclab bench"));
    CHECK(contains(usage_error({"--report", foreign.string(), "vecadd3"}), "give it alone"));
    CHECK(contains(usage_error({"--markdown"}), "go with --report"));
    CHECK(contains(usage_error({"vecadd3", "--update", "docs/performance.md"}), "go with --report"));

    // --update on a document without the markers: refused, the document untouched.
    BenchResults res;
    res.header.gpu = "GPU";
    const auto json = dir.path() / "r.json";
    write_results_file(json, res);
    const auto doc = dir.write("doc.md", "# No markers here\n");
    CHECK(contains(usage_error({"--report", json.string(), "--update", doc.string()}), "nothing generated in it"));
    CHECK(read_text_file(doc) == "# No markers here\n");
    // Two documents, the second with a figure that names no row: neither is written.
    const auto good = dir.write("good.md", "<!-- bench:begin -->\nold\n<!-- bench:end -->\n");
    const auto bad = dir.write("bad.md", "x <!-- figure: vecadd3/add n=1 solution time -->1 ms<!-- /figure -->\n");
    CHECK(contains(usage_error({"--report", json.string(), "--update", good.string(), bad.string()}),
                   "bad.md:1: no row of vecadd3/add at n=1"));
    CHECK(read_text_file(good) == "<!-- bench:begin -->\nold\n<!-- bench:end -->\n");
}

TEST_CASE("bench cli: output files must be writable where asked, before anything runs")
{
    TempDir dir;
    CHECK(contains(usage_error({"vecadd3", "--csv", (dir.path() / "no" / "r.csv").string()}), "does not exist"));
    CHECK(contains(usage_error({"vecadd3", "--json", dir.path().string()}), "a folder"));
    const auto same = (dir.path() / "r.out").string();
    CHECK(contains(usage_error({"vecadd3", "--csv", same, "--json", same}), "the same file"));
}

TEST_CASE("bench cli: without a GPU, bench says so and exits 77, after checking its arguments")
{
    TempDir dir;
    const auto json = dir.path() / "r.json";
    const ProcessResult r =
        run_hpclab({"bench", "vecadd3", "--quick", "--reps", "3", "--variants-dir", fixtures(), "--json", json.string()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 77);
    CHECK(contains(r.err, "no GPU here"));
    CHECK_FALSE(std::filesystem::exists(json));  // nothing measured, nothing written
    CHECK(run_hpclab({"bench"}).exit_code == 77);
}
