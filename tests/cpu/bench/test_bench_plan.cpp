// What `hpclab bench` runs: the sweeps in lab.json, the sizes the command
// line gives instead, --quick, the reps, and the plan's checks of the
// choices (a task, a variant, a size) before anything is built.
#include "bench/plan.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::lab_of;
using hpclab::test::task_of;
using hpclab::test::TempDir;

namespace {

const char* kLab = R"({
  "id": "demo", "order": 1, "title": "Demo", "teaches": "t", "course_program": "demo.cu",
  "student_file": "demo.cu", "header": "demo.h", "pointers": "device",
  "params": {"n": {"help": "length", "min": 1, "max": 100}},
  "hints": ["h"],
  "tasks": [{"id": "add", "entry": "add", "title": "adds", "tolerance": {"kind": "exact"},
             "sizes": [{"n": 1, "why": "one"}], "demo": {"n": 10}, "timing": {"reps": 3, "size": {"n": 20}},
             "bench": {"sizes": [{"n": 8}, {"n": 64}]}},
            {"id": "refuse", "entry": "refuse", "title": "refuses", "tolerance": {"kind": "exact"},
             "sizes": [{"n": 1, "why": "one"}], "demo": {"n": 10}}]
})";

LabInfo load(const std::string& json)
{
    TempDir dir;
    return Catalog::load_lab(dir.path(), dir.write("labs/demo/lab.json", json));
}

std::string load_error(const std::string& from, const std::string& to)
{
    std::string json = kLab;
    const auto at = json.find(from);
    REQUIRE(at != std::string::npos);
    json.replace(at, from.size(), to);
    try {
        load(json);
    } catch (const CatalogError& e) {
        return e.what();
    }
    return "";
}

std::string plan_error(const std::vector<const LabInfo*>& labs, const BenchChoices& c,
                       const std::filesystem::path& dir = test::test_data() / "bench")
{
    try {
        plan_bench(labs, c, dir, test::course_root());
    } catch (const BenchInputError& e) {
        return e.what();
    }
    return "";
}

std::vector<std::int64_t> ns(const std::vector<Params>& sweep)
{
    std::vector<std::int64_t> out;
    for (const auto& p : sweep) out.push_back(p.at("n"));
    return out;
}

}  // namespace

TEST_CASE("bench plan: lab.json's bench sweep is read and checked")
{
    const LabInfo lab = load(kLab);
    CHECK(lab.tasks[0].timed);
    CHECK(ns(lab.tasks[0].bench_sizes) == std::vector<std::int64_t> {8, 64});
    CHECK_FALSE(lab.tasks[1].timed);
    CHECK(lab.tasks[1].bench_sizes.empty());
    CHECK(contains(load_error("{\"n\": 64}", "{\"n\": 640}"), "tasks[0].bench.sizes[1].n: is 640, outside [1, 100]"));
    CHECK(contains(load_error("{\"n\": 64}", "{\"m\": 64}"), "bench.sizes[1].m: is not a parameter"));
    CHECK(contains(load_error("[{\"n\": 8}, {\"n\": 64}]", "[]"), "bench.sizes: must be a non-empty array"));
    CHECK(contains(load_error("\"demo\": {\"n\": 10}}", "\"demo\": {\"n\": 10}, \"bench\": {\"sizes\": [{\"n\": 2}]}}"),
                   "tasks[1].bench: needs a \"timing\" section"));
}

TEST_CASE("bench plan: the course's sweeps, smallest first")
{
    const std::vector<std::int64_t> vecadd3 = {1 << 20, 1 << 22, 1 << 24, 1 << 26};
    CHECK(ns(task_of("vecadd3", "add").bench_sizes) == vecadd3);
    for (const char* task : {"naive", "tree", "atomic"})
        CHECK(ns(task_of("reduction", task).bench_sizes) == std::vector<std::int64_t> {1 << 20, 1 << 22, 1 << 24, 1 << 26});
    CHECK(ns(task_of("stencil", "shared").bench_sizes) == std::vector<std::int64_t> {1 << 20, 1 << 22, 1 << 24, 1 << 26});
    CHECK(ns(task_of("matmul", "tiled").bench_sizes) == std::vector<std::int64_t> {512, 1024, 2048, 4096});
    // aos_soa stops at 2^24: 2 GiB of structures at 2^26 made its sweep too long for a device call.
    for (const char* task : {"aos", "soa", "convert"})
        CHECK(ns(task_of("aos_soa", task).bench_sizes) == std::vector<std::int64_t> {1 << 20, 1 << 22, 1 << 24});
    const auto& rotation = task_of("rotation", "naive").bench_sizes;
    REQUIRE(rotation.size() == 3);
    CHECK(rotation.back() == Params {{"width", 8192}, {"height", 8192}});
    std::vector<std::string> ids;
    for (const LabInfo* lab : labs_with_sweeps(test::catalog())) ids.push_back(lab->id);
    CHECK(ids == std::vector<std::string> {"hello", "vecadd0", "vecadd1", "vecadd2", "vecadd3", "stencil", "symbols",
                                            "reduction", "warpreduce", "matmul", "rotation", "aos_soa", "streams"});
}

TEST_CASE("bench plan: the sweep, the size options instead, and --quick")
{
    const LabInfo lab = load(kLab);
    const TaskInfo& add = lab.tasks[0];
    CHECK(ns(bench_sweep(add, {}, false)) == std::vector<std::int64_t> {8, 64});
    CHECK(ns(bench_sweep(add, {}, true)) == std::vector<std::int64_t> {64});
    CHECK(ns(bench_sweep(add, {{"n", {5, 7, 6}}}, false)) == std::vector<std::int64_t> {5, 7, 6});
    CHECK(ns(bench_sweep(add, {{"n", {5, 7, 6}}}, true)) == std::vector<std::int64_t> {7});
    // Without a sweep: the timing size.
    TaskInfo plain = add;
    plain.bench_sizes.clear();
    CHECK(ns(bench_sweep(plain, {}, false)) == std::vector<std::int64_t> {20});

    // Two parameters: lists pair up, a single value goes with each.
    const TaskInfo& rotate = task_of("rotation", "tiled");
    const auto paired = bench_sweep(rotate, {{"width", {100, 200}}, {"height", {30, 40}}}, false);
    CHECK(paired == std::vector<Params> {{{"width", 100}, {"height", 30}}, {{"width", 200}, {"height", 40}}});
    const auto broadcast = bench_sweep(rotate, {{"width", {100, 200}}, {"height", {30}}}, false);
    CHECK(broadcast == std::vector<Params> {{{"width", 100}, {"height", 30}}, {{"width", 200}, {"height", 30}}});
    // Only one given: the other keeps the timing size's value.
    CHECK(bench_sweep(rotate, {{"width", {100}}}, false) ==
          std::vector<Params> {{{"width", 100}, {"height", rotate.timing.at("height")}}});
    CHECK_THROWS_AS(bench_sweep(rotate, {{"width", {1, 2}}, {"height", {1, 2, 3}}}, false), BenchInputError);
    // --quick: the most elements, not the last listed.
    CHECK(bench_sweep(rotate, {{"width", {4000, 100}}, {"height", {10, 1000}}}, true) ==
          std::vector<Params> {{{"width", 100}, {"height", 1000}}});
}

TEST_CASE("bench plan: reps are the task's timing reps, at least 10, unless given")
{
    const LabInfo lab = load(kLab);
    CHECK(bench_reps(lab.tasks[0], std::nullopt) == 10);  // its timing says 3
    CHECK(bench_reps(lab.tasks[0], 3) == 3);
    TaskInfo many = lab.tasks[0];
    many.timing_reps = 20;
    CHECK(bench_reps(many, std::nullopt) == 20);
}

TEST_CASE("bench plan: a smaller size gets more timed calls, as many times more as it has fewer elements, unless --reps")
{
    const LabInfo lab = load(kLab);
    TaskPlan plan {&lab.tasks[0], {{{"n", 1 << 20}}, {{"n", 1 << 22}}, {{"n", 1 << 24}}}, 10, false};
    CHECK(bench_calls(plan, {{"n", 1 << 24}}) == 10);
    CHECK(bench_calls(plan, {{"n", 1 << 22}}) == 40);
    CHECK(bench_calls(plan, {{"n", 1 << 20}}) == kMaxBenchReps);  // 160, past what a run holds
    plan.reps_given = true;
    CHECK(bench_calls(plan, {{"n", 1 << 20}}) == 10);
    const TaskPlan one {&lab.tasks[0], {{{"n", 1000}}}, 12, false};
    CHECK(bench_calls(one, {{"n", 1000}}) == 12);
}

TEST_CASE("bench plan: labs, tasks and variants from the fixture folder")
{
    const auto plans = plan_bench({&lab_of("vecadd3"), &lab_of("matmul")}, {}, test::test_data() / "bench",
                                  test::course_root());
    REQUIRE(plans.size() == 2);
    std::vector<std::string> ids;
    for (const auto& v : plans[0].variants) ids.push_back(v.id);
    CHECK(ids == std::vector<std::string> {"one_thread_per_block", "solution", "grid_stride"});
    REQUIRE(plans[0].tasks.size() == 1);
    CHECK(plans[0].tasks[0].sizes.size() == 4);
    CHECK(plans[0].tasks[0].reps == 10);
    CHECK(plans[1].tasks.size() == 2);
    CHECK(plans[1].variants.back().id == "cublas_sgemm");

    BenchChoices c;
    c.variants = {"cublas_sgemm"};
    c.task = "tiled";
    c.quick = true;
    c.reps = 3;
    const auto only = plan_bench({&lab_of("vecadd3"), &lab_of("matmul")}, c, test::test_data() / "bench",
                                 test::course_root());
    REQUIRE(only.size() == 1);  // vecadd3 has neither the task nor the variant
    CHECK(only[0].lab->id == "matmul");
    REQUIRE(only[0].variants.size() == 1);
    REQUIRE(only[0].tasks.size() == 1);
    CHECK(only[0].tasks[0].task->id == "tiled");
    CHECK(ns(only[0].tasks[0].sizes) == std::vector<std::int64_t> {4096});
    CHECK(only[0].tasks[0].reps == 3);
}

TEST_CASE("bench plan: bad choices are refused with what to do")
{
    const LabInfo* vecadd3 = &lab_of("vecadd3");
    const LabInfo* matmul = &lab_of("matmul");
    BenchChoices sizes;
    sizes.sizes = {{"n", {1024}}};
    CHECK(contains(plan_error({vecadd3, matmul}, sizes), "go with one lab"));
    sizes.sizes = {{"n", {0}}};
    CHECK(contains(plan_error({vecadd3}, sizes), "--n 0 is out of range for lab vecadd3"));
    sizes.sizes = {{"width", {64}}};
    CHECK(contains(plan_error({vecadd3}, sizes), "--width is not a size of lab vecadd3"));

    BenchChoices task;
    task.task = "tiled";
    CHECK(contains(plan_error({vecadd3}, task), "no lab benchmarked here has a task 'tiled' (vecadd3: add)"));
    const LabInfo demo = load(kLab);
    task.task = "refuse";
    CHECK(contains(plan_error({&demo}, task), "task refuse of lab demo has no \"timing\""));

    BenchChoices variant;
    variant.variants = {"solution", "cublas"};
    const std::string unknown = plan_error({vecadd3}, variant);
    CHECK(contains(unknown, "no variant 'cublas' for lab vecadd3"));
    CHECK(contains(unknown, "grid_stride, one_thread_per_block, solution"));

    BenchChoices reps;
    reps.reps = 0;
    CHECK(contains(plan_error({vecadd3}, reps), "--reps must be between 1 and 63"));
    reps.reps = 64;
    CHECK(contains(plan_error({vecadd3}, reps), "--reps must be between 1 and 63"));

    BenchChoices nothing;
    nothing.variants = {"grid_stride"};
    nothing.task = "naive";
    CHECK(contains(plan_error({matmul, vecadd3}, nothing), "nothing to run"));
    CHECK(contains(plan_error({}, {}), "no lab to benchmark"));
}

TEST_CASE("bench plan: the copy comes along with any variant chosen, never alone")
{
    TempDir dir;
    dir.write("vecadd3/cudamemcpy.cu", "// hpclab-bench: kind=limit tasks=add title=\"copy\"\n");
    dir.write("vecadd3/wide.cu", "// hpclab-bench: kind=further tasks=add title=\"wide\"\n");
    BenchChoices c;
    c.variants = {"wide"};
    auto plans = plan_bench({&lab_of("vecadd3")}, c, dir.path(), dir.path());
    REQUIRE(plans.size() == 1);
    std::vector<std::string> ids;
    for (const auto& v : plans[0].variants) ids.push_back(v.id);
    CHECK(ids == std::vector<std::string> {"cudamemcpy", "wide"});  // the copy first: the table's order

    c.variants = {"cudamemcpy"};  // asked for by name: the copy alone
    plans = plan_bench({&lab_of("vecadd3")}, c, dir.path(), dir.path());
    REQUIRE(plans.size() == 1);
    CHECK(plans[0].variants.size() == 1);

    // A lab where only the copy would run is left out.
    dir.write("matmul/cublas.cu", "// hpclab-bench: kind=library tasks=naive title=\"cuBLAS\" link=cublas\n");
    c.variants = {"cublas"};
    plans = plan_bench({&lab_of("vecadd3"), &lab_of("matmul")}, c, dir.path(), dir.path());
    REQUIRE(plans.size() == 1);
    CHECK(plans[0].lab->id == "matmul");
}
