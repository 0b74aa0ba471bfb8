// The benchmark's results: the JSON file written and read back the same,
// the CSV, the terminal's table, the markdown for the docs, the docs'
// generated section, and results files that are not.
#include "bench/bench_test_rows.h"
#include "bench/metrics.h"
#include "bench/render.h"
#include "util/text_file.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;
using hpclab::test::timed_row;

namespace {

// Rows as a bench of vecadd3 and matmul writes them: every status, a copy row, a cuBLAS row.
BenchResults sample()
{
    BenchResults res;
    res.header.gpu = "NVIDIA H100 80GB HBM3";
    res.header.gpu_uuid = "GPU-1234";
    res.header.driver = "13.0";
    res.header.nvcc = "13.0.88";
    res.header.architectures = "90";
    res.header.copy_gb_per_s = 3000;
    res.header.date = "2026-11-23T10:00:00Z";
    res.header.commit = "abcdef123456";
    res.header.changed_files = {"bench/vecadd3/wide.cu"};
    res.header.command = "hpclab bench vecadd3 matmul";
    const Params small = {{"n", 1 << 20}};
    auto& rows = res.rows;
    rows.push_back(timed_row("add", "reference", "reference", small, 0.005, 12.0 * (1 << 20)));
    rows.push_back(timed_row("add", "one_thread_per_block", "naive", small, 0.5, 12.0 * (1 << 20)));
    BenchRow wrong = timed_row("add", "typo", "course", small, 0, 12.0 * (1 << 20));
    wrong.status = BenchStatus::wrong;
    wrong.message = "call 2 of 11: c[7] (index 7): expected 3, got 4";
    rows.push_back(wrong);
    BenchRow copy = timed_row("add", "cudamemcpy", "limit", small, 12.0 * (1 << 20) / 3e12 * 1e3, 12.0 * (1 << 20));
    copy.title = "cudaMemcpy D2D of the same bytes";  // as bench/vecadd3/cudamemcpy.cu says
    rows.push_back(copy);
    const Params big = {{"n", 4096}};
    rows.push_back(timed_row("tiled", "reference", "reference", big, 15, 12.0 * 4096 * 4096, 2.0 * 4096 * 4096 * 4096));
    rows.push_back(timed_row("tiled", "cublas_sgemm", "library", big, 2.7, 12.0 * 4096 * 4096, 2.0 * 4096 * 4096 * 4096));
    BenchRow large = timed_row("tiled", "reference", "reference", {{"n", 32768}}, 0, 12.0 * 32768 * 32768);
    large.status = BenchStatus::too_large;
    large.message = "this size needs 12.9 GB | of GPU memory";
    rows.push_back(large);
    compute_metrics(rows, res.header.gpu);
    return res;
}

std::string read(const std::filesystem::path& p) { return read_text_file(p).value_or(""); }

std::string read_error(const std::filesystem::path& p)
{
    try {
        read_results_file(p);
    } catch (const BenchInputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("bench report: the JSON file reads back as it was written")
{
    TempDir dir;
    const BenchResults res = sample();
    write_results_file(dir.path() / "r.json", res);
    const BenchResults back = read_results_file(dir.path() / "r.json");
    CHECK(back.header.gpu == res.header.gpu);
    CHECK(back.header.commit == res.header.commit);
    CHECK(back.header.changed_files == res.header.changed_files);
    CHECK(back.header.copy_gb_per_s == doctest::Approx(3000));
    CHECK(back.header.complete);
    REQUIRE(back.rows.size() == res.rows.size());
    for (std::size_t i = 0; i < res.rows.size(); ++i) {
        CAPTURE(i);
        const BenchRow &a = res.rows[i], &b = back.rows[i];
        CHECK(a.lab == b.lab);
        CHECK(a.variant == b.variant);
        CHECK(a.kind == b.kind);
        CHECK(a.title == b.title);
        CHECK(a.params == b.params);
        CHECK(a.status == b.status);
        CHECK(a.message == b.message);
        CHECK(a.median_ms == b.median_ms);
        CHECK(a.max_ms == b.max_ms);
        CHECK(a.gbps == b.gbps);
        CHECK(a.gflops == b.gflops);
        CHECK(a.fraction_of_limit == b.fraction_of_limit);
        CHECK(a.limit_name == b.limit_name);
        CHECK(a.ratio_to_library == b.ratio_to_library);
        CHECK(a.library == b.library);
        CHECK(a.limit_low == b.limit_low);
        CHECK(a.limit_high == b.limit_high);
        CHECK(a.library_low == b.library_low);
        CHECK(a.library_high == b.library_high);
    }
    // What was not measured is null in the file, not a number.
    const auto doc = nlohmann::json::parse(read(dir.path() / "r.json"));
    CHECK(doc["format"] == "hpclab-bench-results");
    CHECK(doc["rows"][2]["status"] == "wrong");
    CHECK(doc["rows"][2]["median_ms"].is_null());
    CHECK(doc["rows"][2]["gbps"].is_null());
    // And the markdown of the file read back is the markdown of the results.
    CHECK(render_markdown(back) == render_markdown(res));
}

TEST_CASE("bench report: the CSV has every field, quoted where needed, empty where not measured")
{
    const std::string csv = results_csv(sample().rows);
    CHECK(csv.rfind("lab,task,variant,kind,title,params,bytes,flops,reps,median_ms,min_ms,max_ms,gbps,gflops,"
                    "fraction_of_limit,limit_name,ratio_to_library,library,status,message\n",
                    0) == 0);
    CHECK(contains(csv, "vecadd3,add,reference,reference,\"the reference, with a comma\",n=1048576,12582912,,10,0.005,"));
    CHECK(contains(csv, ",cudaMemcpy D2D of the same bytes,"));
    CHECK(contains(csv, "vecadd3,add,typo,course,\"the typo, with a comma\",n=1048576,12582912,,10,,,,,,,,,,wrong,"
                        "\"call 2 of 11: c[7] (index 7): expected 3, got 4\"\n"));
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + static_cast<long>(sample().rows.size()));
}

TEST_CASE("bench report: the table groups rows by lab, task and size, kinds in order")
{
    const std::string t = render_table(sample());
    CHECK(contains(t, "Benchmark on NVIDIA H100 80GB HBM3 (driver CUDA 13.0), nvcc 13.0.88, 2026-11-23T10:00:00Z, "
                      "hpclab abcdef123456"));
    CHECK(contains(t, "vecadd3 / add, n=1048576 (12.6 MB moved per call)"));
    CHECK(contains(t, "matmul / tiled, n=4096 (137.4 GFLOP per call)"));
    // the copy (the limit), naive, course, reference
    const auto copy = t.find("cudamemcpy"), naive = t.find("one_thread_per_block"), course = t.find("typo"),
               ref = t.find("reference  ");
    CHECK(copy < naive);
    CHECK(naive < course);
    CHECK(course < ref);
    CHECK(contains(t, "wrong  call 2 of 11: c[7] (index 7): expected 3, got 4"));
    CHECK(contains(t, "too large  this size needs 12.9 GB"));
    CHECK(contains(t, "2.52 TB/s"));  // 12.6 MB in 5 us
    CHECK(contains(t, "84%"));        // of the copy's 3 TB/s
    CHECK(contains(t, "cudaMemcpy D2D of the same bytes at this size"));
    CHECK_FALSE(contains(t, "not copies timed at each size"));  // that copy was timed at its size
    CHECK(contains(t, "9.16 TFLOP/s"));
    CHECK(contains(t, "cublas_sgemm at this size"));
    CHECK_FALSE(contains(t, "INCOMPLETE"));
    BenchResults partial = sample();
    partial.header.complete = false;
    CHECK(contains(render_table(partial), "INCOMPLETE"));
}

TEST_CASE("bench report: markdown has one table per lab task, notes for the rows without numbers")
{
    const std::string md = render_markdown(sample());
    CHECK(contains(md, "Measured on NVIDIA H100 80GB HBM3 (driver CUDA 13.0), nvcc 13.0.88"));
    CHECK(contains(md, "\n### vecadd3 / add\n\n| size | variant | kind | median | min .. max | throughput | of limit | "
                       "vs library |\n|---|"));
    CHECK(contains(md, "| n=1048576 | `reference`: the reference, with a comma | reference | 5.0 us | 4.5 us .. 6.0 us |"));
    CHECK(contains(md, "| n=1048576 | `typo`: the typo, with a comma | course | wrong | - | - | - | - |"));
    CHECK(contains(md, "- n=1048576, `typo`: wrong: call 2 of 11"));
    CHECK(contains(md, "\n### matmul / tiled\n"));
    CHECK(contains(md, "12.9 GB \\| of GPU memory"));  // a | in a cell is escaped
    CHECK(contains(md, "*vs library*: the time of `cublas_sgemm`"));
}

TEST_CASE("bench report: a lab the file holds no row of renders as not measured yet, naming the file's run")
{
    BenchResults none = sample();
    none.rows.clear();
    const std::string md = render_markdown(none);
    CHECK(md.rfind("Not measured yet: the results file (NVIDIA H100 80GB HBM3", 0) == 0);
    CHECK_FALSE(contains(md, "###"));  // no empty table
}

TEST_CASE("bench report: the header names the commit, and what differed from it")
{
    BenchResults res = sample();
    CHECK(contains(render_markdown(res), "hpclab abcdef123456 (with uncommitted changes to bench/vecadd3/wide.cu)"));
    res.header.changed_files = {"a", "b", "c", "d", "e", "f"};
    CHECK(contains(render_table(res), "hpclab abcdef123456 (with uncommitted changes to a, b, c, d and 2 more)"));
    res.header.changed_files.clear();
    CHECK(contains(render_markdown(res), "hpclab abcdef123456; a device copy"));
    res.header.commit = "40fab73a010a-dirty";  // as older files say it: dirty, no list
    CHECK(contains(render_markdown(res), "hpclab 40fab73a010a-dirty (with uncommitted changes; which files was not "
                                         "recorded)"));
}

TEST_CASE("bench report: copy rows from one 256 MiB copy come first, and say what they are")
{
    // A file written before the copy was timed at each size: the copy row is
    // a library row without timed calls, the last of its lab in the file.
    BenchResults res = sample();
    for (auto& r : res.rows)
        if (r.is_copy()) {
            r.kind = "library";
            r.reps = 0;
            r.min_ms = r.max_ms = r.median_ms;
        }
    std::stable_partition(res.rows.begin(), res.rows.end(), [](const BenchRow& r) { return !r.is_copy(); });
    compute_metrics(res.rows, res.header.gpu);
    const std::string md = render_markdown(res);
    const auto table = md.find("### vecadd3 / add");
    CHECK(md.find("`cudamemcpy`", table) < md.find("`one_thread_per_block`", table));
    CHECK(contains(md, std::string("*of limit*: a fraction of ") + std::string(kScaledCopyLimit)));
    CHECK(contains(md, "not copies timed at each size"));
    CHECK(contains(render_table(res), "not copies timed at each size"));
}

TEST_CASE("bench report: results with the old names (reference, course) say what those rows are today")
{
    BenchResults res = sample();  // has `reference` rows, as the results recorded before `tuned`
    CHECK(contains(render_markdown(res), "the `reference` rows are the tuned kernels"));
    for (auto& r : res.rows)
        if (r.variant == "reference") r.variant = "tuned";
    CHECK_FALSE(contains(render_markdown(res), "the `reference` rows are"));
}

TEST_CASE("bench report: the docs' generated section is found and replaced, the rest kept")
{
    const std::string doc = "# Title\n\nBefore.\n\n<!-- bench:begin (generated) -->\nold\ntext\n<!-- bench:end -->\n\nAfter.\n";
    CHECK(generated_section(doc, "d.md") == "old\ntext\n");
    const std::string updated = replace_generated_section(doc, "new", "d.md");
    CHECK(updated == "# Title\n\nBefore.\n\n<!-- bench:begin (generated) -->\nnew\n<!-- bench:end -->\n\nAfter.\n");
    CHECK(generated_section(updated, "d.md") == "new\n");
    CHECK_THROWS_WITH_AS(generated_section("# No markers\n", "d.md"),
                         doctest::Contains("d.md: no generated section"), BenchInputError);
    CHECK_THROWS_AS(replace_generated_section("<!-- bench:end -->\n<!-- bench:begin -->\n", "x", "d.md"),
                    BenchInputError);
}

namespace {

// The sample, with matmul's rows from a later run (a lab measured after the header's run).
BenchResults with_later_matmul()
{
    BenchResults res = sample();
    BenchSupplement later;
    later.labs = {"matmul"};
    later.gpu = "NVIDIA H100 80GB HBM3";
    later.date = "2026-11-24T09:00:00Z";
    later.commit = "fedcba654321";
    later.copy_gb_per_s = 2900;
    later.command = "hpclab bench matmul";
    later.note = "matmul was added after the header's run";
    res.header.supplements.push_back(later);
    return res;
}

}  // namespace

TEST_CASE("bench report: rows from a later run name that run, not the header's, wherever they are rendered")
{
    const BenchResults res = with_later_matmul();
    CHECK(supplement_of(res.header, "matmul") == &res.header.supplements[0]);
    CHECK(supplement_of(res.header, "vecadd3") == nullptr);
    // The whole page: the header's run, the later labs named, each above its tables.
    const std::string md = render_markdown(res);
    CHECK(contains(md, "hpclab abcdef123456"));
    CHECK(contains(md, "The rows of matmul come from later runs, each named above its lab's tables"));
    const auto named = md.find("The rows of matmul: measured on NVIDIA H100 80GB HBM3, 2026-11-24T09:00:00Z, hpclab "
                               "fedcba654321; a device copy of 256 MiB 2.90 TB/s; a later run than the results file's "
                               "header names (`hpclab bench matmul`): matmul was added after the header's run.");
    CHECK(named != std::string::npos);
    CHECK(named < md.find("### matmul / tiled"));
    CHECK(md.find("### vecadd3 / add") < named);  // vecadd3's tables are the header's run's
    // A lab's own page: measured on the later run, and the header's commit nowhere.
    const std::string page = render_markdown(results_of_lab(res, "matmul"));
    CHECK(page.rfind("Measured on NVIDIA H100 80GB HBM3, 2026-11-24T09:00:00Z, hpclab fedcba654321", 0) == 0);
    CHECK_FALSE(contains(page, "abcdef123456"));
    CHECK_FALSE(contains(page, "The rows of"));
    // The other lab's page is the header's run alone.
    const std::string other = render_markdown(results_of_lab(res, "vecadd3"));
    CHECK(contains(other, "hpclab abcdef123456"));
    CHECK_FALSE(contains(other, "fedcba654321"));
    // The terminal's table says it too.
    CHECK(contains(render_table(res), "The rows of matmul: measured on NVIDIA H100 80GB HBM3, 2026-11-24T09:00:00Z"));
    // And the file keeps it.
    TempDir dir;
    write_results_file(dir.path() / "r.json", res);
    const BenchResults back = read_results_file(dir.path() / "r.json");
    REQUIRE(back.header.supplements.size() == 1);
    CHECK(back.header.supplements[0].labs == std::vector<std::string> {"matmul"});
    CHECK(back.header.supplements[0].commit == "fedcba654321");
    CHECK(back.header.supplements[0].copy_gb_per_s == doctest::Approx(2900));
    CHECK(back.header.supplements[0].note == "matmul was added after the header's run");
    CHECK(render_markdown(back) == md);
}

TEST_CASE("bench report: a file that is not a results file is refused by name")
{
    TempDir dir;
    CHECK(contains(read_error(dir.path() / "none.json"), "none.json: no such file"));
    CHECK(contains(read_error(dir.path()), "a folder, not a results file"));
    CHECK(contains(read_error(dir.write("bin.json", std::string("\x89PNG\r\n\x1a\n\0\0", 10))), "a binary file"));
    CHECK(contains(read_error(dir.write("text.json", "rows: none")), "not valid JSON"));
    CHECK(contains(read_error(dir.write("other.json", R"({"id": "vecadd3"})")), "not a results file of hpclab bench"));
    auto doc = results_to_json(sample());
    doc["rows"][1]["status"] = "fast";
    CHECK(contains(read_error(dir.write("status.json", doc.dump())), "status.json.rows[1].status: unknown status 'fast'"));
    doc = results_to_json(sample());
    doc["rows"][0]["params"]["n"] = "big";
    CHECK(contains(read_error(dir.write("params.json", doc.dump())), "rows[0].params.n: must be an integer"));
    doc = results_to_json(sample());
    doc["version"] = 99;
    CHECK(contains(read_error(dir.write("version.json", doc.dump())), "this hpclab reads version 1"));
    doc = results_to_json(with_later_matmul());
    doc["header"]["supplements"][0].erase("labs");
    CHECK(contains(read_error(dir.write("later.json", doc.dump())),
                   "later.json.header.supplements[0].labs: must name the labs whose rows this run measured"));
    doc = results_to_json(sample());
    doc["header"]["supplements"] = "later";
    CHECK(contains(read_error(dir.write("later2.json", doc.dump())), "later2.json.header.supplements: must be an array"));
}

TEST_CASE("bench report: hpclab bench --report renders a written file, and --update rewrites the section")
{
    TempDir dir;
    const BenchResults res = sample();
    const auto json = dir.path() / "results.json";
    write_results_file(json, res);

    ProcessResult r = run_hpclab({"bench", "--report", json.string(), "--markdown"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == render_markdown(res));
    r = run_hpclab({"bench", "--report", json.string()});
    CHECK(r.exit_code == 0);
    CHECK(r.out == render_table(res));

    const auto doc = dir.write("perf.md", "# Perf\n<!-- bench:begin (generated) -->\nNo results recorded yet.\n"
                                          "<!-- bench:end -->\nEnd.\n");
    r = run_hpclab({"bench", "--report", json.string(), "--update", doc.string()});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "Rewrote the generated parts"));
    const std::string updated = read(doc);
    CHECK(generated_section(updated, "perf.md") == render_markdown(res));
    CHECK(updated.rfind("# Perf\n", 0) == 0);
    CHECK(contains(updated, "<!-- bench:end -->\nEnd.\n"));
    r = run_hpclab({"bench", "--report", json.string(), "--update", doc.string()});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "up to date"));
    CHECK(read(doc) == updated);
}
