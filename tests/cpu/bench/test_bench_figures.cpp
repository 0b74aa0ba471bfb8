// Figures quoted in the docs' prose: each names a row of a results file and
// what of it to show, and `bench --report --update` writes the figure from
// the file, so that prose and tables hold the same numbers.
#include "bench/bench_test_rows.h"
#include "bench/figures.h"
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

// vecadd3 at 2^26 beside its copy; matmul's naive and tiled at 4096 beside cuBLAS.
BenchResults sample()
{
    BenchResults res;
    res.header.gpu = "NVIDIA H100 80GB HBM3";
    const Params big = {{"n", 1 << 26}}, mm = {{"n", 4096}};
    const double bytes = 12.0 * (1 << 26), flops = 2.0 * 4096 * 4096 * 4096;
    res.rows = {timed_row("add", "cudamemcpy", "limit", big, 0.28, bytes),
                timed_row("add", "solution", "course", big, 0.338, bytes),
                timed_row("add", "tuned", "reference", big, 0.286, bytes),
                timed_row("naive", "tuned", "reference", mm, 22.341, 0, flops),
                timed_row("tiled", "solution", "course", mm, 15.248, 0, flops),
                timed_row("tiled", "tuned", "reference", mm, 7.899, 0, flops),
                timed_row("tiled", "cublas", "library", mm, 2.688, 0, flops),
                timed_row("tiled", "vectorized", "further", mm, 3.0, 0, flops),
                timed_row("tiled", "register", "further", mm, 3.1, 0, flops)};
    BenchRow wrong = timed_row("tiled", "broken", "naive", mm, 0, 0, flops);
    wrong.status = BenchStatus::wrong;
    res.rows.push_back(wrong);
    compute_metrics(res.rows, res.header.gpu);
    return res;
}

std::string text_of(const std::string& spec) { return figure_text(sample(), spec, "doc.md:3"); }

std::string error_of(const std::string& spec)
{
    try {
        text_of(spec);
    } catch (const BenchInputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("bench figures: a row by its variant's id or its kind, and what of it")
{
    CHECK(text_of("vecadd3/add n=67108864 solution time") == "0.338 ms");
    CHECK(text_of("vecadd3/add n=67108864 course time") == "0.338 ms");  // the kind, as in older files
    CHECK(text_of("vecadd3/add n=67108864 course rate") == "2.38 TB/s");
    CHECK(text_of("vecadd3/add n=67108864 course limit") == "83%");      // of the copy at that size
    CHECK(text_of("vecadd3/add n=67108864 cudamemcpy rate") == "2.88 TB/s");
    CHECK(text_of("matmul/tiled n=4096 course rate") == "9.01 TFLOP/s");
    CHECK(text_of("matmul/tiled n=4096 reference library") == "0.34x (0.26..0.45)");
    CHECK(text_of("matmul/tiled n=4096 reference vs:course") == "1.93x (1.45..2.57)");  // the course's time over the tuned one's
    CHECK(text_of("matmul/tiled n=4096 course vs:naive/reference") == "1.47x (1.10..1.95)");
}

TEST_CASE("bench figures: a figure that cannot be made is named, with where it is")
{
    CHECK(contains(error_of("vecadd3/add n=1 course time"), "doc.md:3: no row of vecadd3/add at n=1 is the variant or "
                                                             "the kind 'course'"));
    CHECK(contains(error_of("matmul/tiled n=4096 further rate"), "has 2 rows of kind 'further': name the variant's id"));
    CHECK(contains(error_of("matmul/tiled n=4096 broken time"), "has no number (wrong)"));
    CHECK(contains(error_of("matmul/tiled n=4096 course speed"), "'speed' is not time, rate, limit, library"));
    CHECK(contains(error_of("matmul/tiled n=4096 course"), "a figure reads '<lab>/<task> <size>"));
    CHECK(contains(error_of("matmul n=4096 course time"), "'matmul' is not lab/task"));
    CHECK(contains(error_of("matmul/tiled 4096 course time"), "the size '4096' is not name=value"));
}

TEST_CASE("bench figures: found on their line, rewritten from the results, the rest of the text kept")
{
    const std::string doc = "# Page\n\nThe lesson's tiles reach <!-- figure: matmul/tiled n=4096 course rate -->"
                            "old<!-- /figure -->, the tuned ones\n<!-- figure: matmul/tiled n=4096 reference vs:course "
                            "-->?<!-- /figure --> faster.\n";
    const auto figures = find_figures(doc, "doc.md");
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].spec == "matmul/tiled n=4096 course rate");
    CHECK(figures[0].line == 3);
    CHECK(doc.substr(figures[0].text_begin, figures[0].text_end - figures[0].text_begin) == "old");
    CHECK(figures[1].line == 4);
    const std::string updated = regenerate_document(doc, sample(), "doc.md");
    CHECK(updated == "# Page\n\nThe lesson's tiles reach <!-- figure: matmul/tiled n=4096 course rate -->"
                     "9.01 TFLOP/s<!-- /figure -->, the tuned ones\n<!-- figure: matmul/tiled n=4096 reference "
                     "vs:course -->1.93x (1.45..2.57)<!-- /figure --> faster.\n");
    CHECK(regenerate_document(updated, sample(), "doc.md") == updated);
    CHECK_THROWS_WITH_AS(find_figures("a <!-- figure: x -->1\n<!-- /figure -->", "d.md"),
                         doctest::Contains("d.md:1: a figure's"), BenchInputError);
    CHECK_THROWS_WITH_AS(regenerate_document("# Nothing\n", sample(), "d.md"),
                         doctest::Contains("d.md: nothing generated in it"), BenchInputError);
}

TEST_CASE("bench figures: a document with a table and figures gets both, and --update takes a folder")
{
    TempDir dir;
    const auto json = dir.path() / "r.json";
    write_results_file(json, sample());
    const std::string page = "Fast: <!-- figure: vecadd3/add n=67108864 course limit -->?<!-- /figure -->.\n"
                             "<!-- bench:begin lab=vecadd3 -->\n<!-- bench:end -->\n";
    dir.write("docs/vecadd3.md", page);
    dir.write("docs/plain.md", "# No figures: left alone\n");
    const ProcessResult r = run_hpclab({"bench", "--report", json.string(), "--update", (dir.path() / "docs").string()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    const std::string updated = read_text_file(dir.path() / "docs" / "vecadd3.md").value_or("");
    CHECK(updated.rfind("Fast: <!-- figure: vecadd3/add n=67108864 course limit -->83%<!-- /figure -->.\n", 0) == 0);
    CHECK(generated_section(updated, "vecadd3.md") == render_markdown(results_of_lab(sample(), "vecadd3")));
    CHECK_FALSE(contains(generated_section(updated, "vecadd3.md"), "matmul"));
    CHECK(read_text_file(dir.path() / "docs" / "plain.md") == "# No figures: left alone\n");
    CHECK_FALSE(contains(r.out, "plain.md"));
}
