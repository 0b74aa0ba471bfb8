// The benchmark's figures from synthetic numbers: a run's report becomes a
// row (times, or why there are none), and rows become throughput, a
// fraction of the limit and a ratio to the library.
#include "bench/measure.h"
#include "bench/metrics.h"
#include "bench/plot.h"
#include "bench/render.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::lab_of;
using hpclab::test::spec_of;
using hpclab::test::task_of;

namespace {

BenchRow row(std::string variant, std::string kind, double ms, double bytes, double flops = 0,
             Params params = {{"n", 1024}})
{
    BenchRow r;
    r.lab = "lab";
    r.task = "task";
    r.variant = std::move(variant);
    r.kind = std::move(kind);
    r.params = std::move(params);
    r.bytes = bytes;
    r.flops = flops;
    r.median_ms = r.min_ms = r.max_ms = ms;
    r.status = ms > 0 ? BenchStatus::ok : BenchStatus::wrong;
    return r;
}

const BenchRow& find(const std::vector<BenchRow>& rows, const std::string& variant)
{
    for (const auto& r : rows)
        if (r.variant == variant) return r;
    FAIL("no row " << variant);
    return rows.front();
}

CallReport call(double gpu_ms)
{
    CallReport c;
    c.done = true;
    c.gpu_ms = gpu_ms;
    return c;
}

BenchCall vecadd3_call(std::int64_t n, int reps)
{
    return BenchCall {&lab_of("vecadd3"), &task_of("vecadd3", "add"), &spec_of("vecadd3", "add"), {{"n", n}}, reps, 42};
}

}  // namespace

TEST_CASE("bench metrics: a memory-bound task against the device copy")
{
    // 2 GB moved; the copy does it in 1 ms (2000 GB/s), the variant in 2 ms.
    std::vector<BenchRow> rows = {row("reference", "reference", 2.0, 2e9), row("slow", "naive", 8.0, 2e9),
                                  row("broken", "course", 0, 2e9)};
    rows.push_back(copy_row(rows[0], 2000));
    CHECK(rows.back().median_ms == doctest::Approx(1.0));
    compute_metrics(rows, "NVIDIA H100 80GB HBM3");

    const BenchRow& ref = find(rows, "reference");
    CHECK(ref.gbps == doctest::Approx(1000));
    CHECK(ref.gflops == 0);
    CHECK(ref.fraction_of_limit == doctest::Approx(0.5));
    CHECK(ref.limit_name == kScaledCopyLimit);  // copy_row: one copy's bandwidth, scaled, and said so
    CHECK(ref.ratio_to_library == doctest::Approx(0.5));
    CHECK(ref.library == "cudamemcpy");
    CHECK(find(rows, "slow").fraction_of_limit == doctest::Approx(0.125));
    CHECK(find(rows, "slow").ratio_to_library == doctest::Approx(0.125));
    const BenchRow& copy = find(rows, "cudamemcpy");
    CHECK(copy.kind == "limit");
    CHECK(copy.reps == 0);
    CHECK(copy.scaled_copy());
    CHECK(copy.gbps == doctest::Approx(2000));
    CHECK(copy.fraction_of_limit == doctest::Approx(1));
    // A wrong row gets no figures at all.
    const BenchRow& broken = find(rows, "broken");
    CHECK(broken.gbps == 0);
    CHECK(broken.fraction_of_limit == 0);
    CHECK(broken.ratio_to_library == 0);
    CHECK(broken.limit_name.empty());
}

TEST_CASE("bench metrics: a library variant is the ratio's baseline, the copy stays the limit")
{
    // A reduction with CUB beside it: CUB 1.5 ms, the variant 3 ms, the copy 1 ms.
    std::vector<BenchRow> rows = {row("reference", "reference", 3.0, 4e9), row("cub", "library", 1.5, 4e9),
                                  row("thrust", "library", 2.0, 4e9)};
    rows.push_back(copy_row(rows[0], 4000));
    compute_metrics(rows, "any GPU");
    const BenchRow& ref = find(rows, "reference");
    CHECK(ref.library == "cub");  // the fastest library variant
    CHECK(ref.ratio_to_library == doctest::Approx(0.5));
    CHECK(ref.fraction_of_limit == doctest::Approx(1.0 / 3.0));
    CHECK(ref.limit_name == kScaledCopyLimit);
}

TEST_CASE("bench metrics: a copy timed at the size is the limit at that size, and says so")
{
    // bench/<lab>/cudamemcpy.cu at two sizes: the small copy reaches less bandwidth.
    BenchRow small_copy = row("cudamemcpy", "limit", 0.01, 1e7, 0, {{"n", 1}});  // 1000 GB/s
    BenchRow big_copy = row("cudamemcpy", "limit", 1.0, 3e9, 0, {{"n", 2}});     // 3000 GB/s
    small_copy.reps = big_copy.reps = 10;
    std::vector<BenchRow> rows = {row("solution", "course", 0.02, 1e7, 0, {{"n", 1}}), small_copy,
                                  row("solution", "course", 2.0, 3e9, 0, {{"n", 2}}), big_copy};
    compute_metrics(rows, "any GPU");
    CHECK_FALSE(rows[1].scaled_copy());
    CHECK(rows[0].fraction_of_limit == doctest::Approx(0.5));  // of the small copy, not of the big one's bandwidth
    CHECK(rows[2].fraction_of_limit == doctest::Approx(0.5));
    CHECK(rows[0].limit_name == kCopyAtSizeLimit);
    CHECK(rows[0].ratio_to_library == doctest::Approx(0.5));
    CHECK(rows[0].library == "cudamemcpy");
    CHECK(rows[1].fraction_of_limit == doctest::Approx(1));

    // A lab whose vectors are host memory: its copy row is the call's own copies, and its title says so.
    rows[1].title = rows[3].title = "the call's copies alone";
    compute_metrics(rows, "any GPU");
    CHECK(rows[0].limit_name == "the call's copies alone at this size");
}

TEST_CASE("bench metrics: a compute-bound task against cuBLAS at the same size, else the fastest library rate "
          "measured, else the grading model")
{
    // 2 TFLOP: cuBLAS 40 ms (50 TFLOP/s), the course's kernel 200 ms (10 TFLOP/s).
    std::vector<BenchRow> rows = {row("reference", "reference", 200, 1e8, 2e12), row("cublas", "library", 40, 1e8, 2e12),
                                  row("reference", "reference", 100, 1e8, 2e12, {{"n", 2048}})};
    rows[1].min_ms = 38, rows[1].max_ms = 44;
    rows[2].min_ms = 90, rows[2].max_ms = 125;
    compute_metrics(rows, "NVIDIA H100 80GB HBM3");
    CHECK(rows[0].gflops == doctest::Approx(10000));
    CHECK(rows[0].fraction_of_limit == doctest::Approx(0.2));
    CHECK(rows[0].limit_name == "cublas at this size");
    CHECK(rows[0].ratio_to_library == doctest::Approx(0.2));
    CHECK(rows[1].fraction_of_limit == doctest::Approx(1));
    // Another size, without cuBLAS beside it: the fastest library rate of the
    // results (cuBLAS at n=1024, 50 TFLOP/s), named, with both rows' spread; no ratio.
    CHECK(rows[2].gflops == doctest::Approx(20000));
    CHECK(rows[2].fraction_of_limit == doctest::Approx(0.4));
    CHECK(rows[2].limit_name == "cublas at lab / task, n=1024, 50.00 TFLOP/s (the fastest library rate in these results)");
    CHECK(rows[2].limit_low == doctest::Approx(0.4 * 100 / 125 * 38 / 40));
    CHECK(rows[2].limit_high == doctest::Approx(0.4 * 100 / 90 * 44 / 40));
    CHECK(rows[2].ratio_to_library == 0);
    // The same on any GPU: it was measured there.
    compute_metrics(rows, "NVIDIA A100-SXM4-80GB");
    CHECK(rows[2].fraction_of_limit == doctest::Approx(0.4));
    // No library ran in the bench: the model's 51.5 TFLOP/s on an H100, said so.
    rows.erase(rows.begin() + 1);
    compute_metrics(rows, "NVIDIA H100 80GB HBM3");
    CHECK(rows[1].fraction_of_limit == doctest::Approx(20000 / kModelSgemmGflops));
    CHECK(contains(rows[1].limit_name, "from the grading model"));
    // The model's figure is an H100's: on another GPU, no fraction at all.
    compute_metrics(rows, "NVIDIA A100-SXM4-80GB");
    CHECK(rows[1].fraction_of_limit == 0);
    CHECK(rows[1].limit_name.empty());
}

TEST_CASE("bench metrics: the copy row of a compute-bound task is a bandwidth, not a rate of flops")
{
    // symbols' poly: 2 GFLOP in 0.4 ms (5 TFLOP/s); its 100 MB copied in 0.05 ms (2 TB/s).
    std::vector<BenchRow> rows = {row("solution", "course", 0.4, 1e8, 2e9), row("cudamemcpy", "limit", 0.05, 1e8, 2e9),
                                  row("cublas", "library", 40, 1e8, 2e12, {{"n", 8192}})};
    compute_metrics(rows, "NVIDIA H100 80GB HBM3");
    const BenchRow& copy = find(rows, "cudamemcpy");
    CHECK_FALSE(copy.compute_bound());
    CHECK(copy.gflops == 0);
    CHECK(copy.gbps == doctest::Approx(2000));
    CHECK(copy.fraction_of_limit == doctest::Approx(1));  // the copy, against itself
    const BenchRow& solution = find(rows, "solution");
    CHECK(solution.gflops == doctest::Approx(5000));
    CHECK(solution.fraction_of_limit == doctest::Approx(0.1));  // against cuBLAS's 50 TFLOP/s, not the copy
    CHECK(contains(solution.limit_name, "the fastest library rate"));
    // Its plot is in flops, without the copy's line.
    BenchResults res;
    res.header.gpu = "NVIDIA H100 80GB HBM3";
    res.rows = {rows[0], rows[1]};
    const auto plots = render_plots(res);
    REQUIRE(plots.size() == 1);
    CHECK(contains(plots[0].second, "GFLOP/s against size"));
    CHECK_FALSE(contains(plots[0].second, "cudamemcpy"));
    CHECK(contains(plots[0].second, "solution"));
    CHECK_FALSE(contains(plots[0].second, "the dashed line is the ceiling"));  // none is drawn
}

TEST_CASE("bench metrics: every ratio with its spread, within noise when it holds 1, and past 100% says which")
{
    // The copy's calls 10..14 us; "close" overlaps them, "fast" is beyond them.
    BenchRow copy = row("cudamemcpy", "limit", 0.012, 1e6);
    copy.min_ms = 0.010, copy.max_ms = 0.014;
    BenchRow close = row("close", "course", 0.011, 1e6);
    close.min_ms = 0.009, close.max_ms = 0.013;
    BenchRow fast = row("fast", "reference", 0.006, 1e6);
    fast.min_ms = 0.005, fast.max_ms = 0.007;
    std::vector<BenchRow> rows = {copy, close, fast};
    compute_metrics(rows, "NVIDIA H100 80GB HBM3");

    const TimeRatio t = time_ratio(rows[0], rows[1]);
    CHECK(t.value == doctest::Approx(12.0 / 11));
    CHECK(t.low == doctest::Approx(10.0 / 13));
    CHECK(t.high == doctest::Approx(14.0 / 9));
    CHECK(t.within_noise());
    CHECK(find(rows, "close").limit_low == doctest::Approx(10.0 / 13));
    CHECK(format_limit(find(rows, "close")) == "109% (within noise)");
    CHECK(format_library(find(rows, "close")) == "1.09x (0.77..1.56, within noise)");
    CHECK_FALSE(time_ratio(rows[0], rows[2]).within_noise());
    CHECK(format_limit(find(rows, "fast")) == "200% (beyond the noise: no bound at this size)");
    CHECK(format_library(find(rows, "fast")) == "2.00x (1.43..2.80)");
    CHECK(format_library(find(rows, "cudamemcpy")) == "1.00x");  // the limit against itself: no spread
    CHECK(format_limit(find(rows, "cudamemcpy")) == "100%");
}

TEST_CASE("bench measure: a complete run's times are the timed calls', the warm-up left out")
{
    RunReport r;
    r.status = RunStatus::completed;
    r.calls = {call(50.0), call(3.0), call(1.0), call(2.0), call(4.0)};
    const BenchRow out = measured_row(bench_row(vecadd3_call(1024, 4), solution_variant(lab_of("vecadd3"))), r);
    CHECK(out.status == BenchStatus::ok);
    CHECK(out.timed());
    CHECK(out.median_ms == doctest::Approx(2.5));
    CHECK(out.min_ms == doctest::Approx(1.0));
    CHECK(out.max_ms == doctest::Approx(4.0));
    CHECK(out.reps == 4);
    CHECK(out.variant == "solution");
    CHECK(out.kind == "course");
    CHECK(out.bytes == doctest::Approx(12.0 * 1024));
}

TEST_CASE("bench measure: a wrong call gives no number but the first mismatch")
{
    RunReport r;
    r.status = RunStatus::completed;
    r.calls = {call(5), call(1), call(1)};
    r.calls[2].check.kind = CheckResult::Kind::mismatch;
    r.calls[2].check.summary = "c[7] (index 7): expected 3, got 4";
    r.calls[2].check.details = {"1 of 1024 elements differ"};
    const BenchRow out = measured_row(bench_row(vecadd3_call(1024, 2), solution_variant(lab_of("vecadd3"))), r);
    CHECK(out.status == BenchStatus::wrong);
    CHECK_FALSE(out.timed());
    CHECK(out.median_ms == 0);
    CHECK(contains(out.message, "call 3 of 3: c[7] (index 7): expected 3, got 4; 1 of 1024 elements differ"));

    RunReport input;
    input.status = RunStatus::completed;
    input.calls = {call(5), call(1)};
    input.calls[0].inputs_modified = {"a"};
    input.calls[0].check.kind = CheckResult::Kind::mismatch;
    CHECK(contains(measured_row(BenchRow {}, input).message, "call 1 of 2 (the warm-up): wrote into its input a"));
}

TEST_CASE("bench measure: a run that did not complete, or did not fit, says why")
{
    RunReport crash;
    crash.status = RunStatus::crashed;
    crash.status_message = "the program crashed: segmentation fault (SIGSEGV)";
    crash.calls = {call(1), CallReport {}};
    const BenchRow failed = measured_row(BenchRow {}, crash);
    CHECK(failed.status == BenchStatus::failed);
    CHECK(is_bench_failure(failed.status));
    CHECK(contains(failed.message, "SIGSEGV"));

    RunReport big;
    big.status = RunStatus::too_large;
    big.status_message = "this size needs 90.0 GB of GPU memory; the GPU has 80.0 GB";
    const BenchRow too_large = measured_row(BenchRow {}, big);
    CHECK(too_large.status == BenchStatus::too_large);
    CHECK_FALSE(is_bench_failure(too_large.status));
    CHECK(contains(too_large.message, "90.0 GB"));
}

TEST_CASE("bench measure: the request times a warm-up and the reps, cold, verified, untraced")
{
    const BenchCall c = vecadd3_call(1 << 20, 12);
    const BenchVariant variant = solution_variant(lab_of("vecadd3"));
    const RunRequest req = bench_request(c, variant, "/tmp/program", true, 80'000'000'000ull);
    CHECK(req.ncalls == 13);
    CHECK(req.flush_l2);
    CHECK(req.outputs_only);
    CHECK(req.measure_copy);
    CHECK(req.trace == RunRequest::Trace::none);
    CHECK(req.reference_budget == doctest::Approx(2e7));
    CHECK(req.seed == 42);
    CHECK(req.params.at("n") == 1 << 20);
    CHECK(req.wall_limit_s >= lab_of("vecadd3").wall_limit_s);
    CHECK(req.input_sets == 3);  // the timed recipe: consecutive calls differ
    CHECK(req.judge_outputs);
    CHECK_FALSE(bench_request(c, variant, "/tmp/program", false, 0).measure_copy);
    // The copy is timed the same way, its outputs not judged: they are not the task's.
    BenchVariant copy = variant;
    copy.id = kCopyVariantId;
    copy.kind = VariantKind::limit;
    const RunRequest limit = bench_request(c, copy, "/tmp/program", false, 0);
    CHECK_FALSE(limit.judge_outputs);
    CHECK(limit.ncalls == 13);
    CHECK(limit.flush_l2);
    // a, b and c of 2^20 ints, for each of the 13 calls.
    CHECK(exchange_bytes(*c.spec, c.params, 13) == 13ull * 3 * 4 * (1 << 20));
    CHECK(host_memory_bytes() > 0);
}
