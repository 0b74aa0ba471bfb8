// A new lab gets every invariant with no code in grader/: the lab "scale"
// (tests/data/datalab) is a lab.json and, here, the one line that gives its
// task a spec the course already has. Its files are played by the stand-in
// (tests/standin): each mistake fails by a rule written once, none of which
// names the lab.
#include "check/evidence.h"
#include "check/grid_evidence.h"
#include "check/plan.h"
#include "course/input_ends.h"
#include "course/invariants.h"
#include "course/spec_kit.h"
#include "run/run_recipe.h"
#include "run/task_runner.h"
#include "util/text_file.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace hpclab;

namespace {

class ScaleAdd final : public VectorAddSpec {
public:
    ScaleAdd() : VectorAddSpec(Place::device) {}
};

}  // namespace

HPCLAB_REGISTER_TASK("scale", "add", ScaleAdd);

namespace {

const LabInfo& scale_lab()
{
    static const LabInfo lab = [] {
        const auto root = test::test_data() / "datalab";
        return Catalog::load_lab(root, root / "labs" / "scale" / "lab.json");
    }();
    return lab;
}

const TaskInfo& add_task() { return scale_lab().tasks.front(); }

RunReport play(const char* trick, const Params& params, InputEnds ends = InputEnds::none)
{
    const RunTarget t {.lab = &scale_lab(), .task = &add_task(), .program = "scale-program", .params = params, .seed = 5};
    RunRequest req = correctness_run(t);
    if (ends != InputEnds::none)  // as check/correctness.cpp makes a range_ends run's inputs
        req.fill_inputs = [&](CallBuffers& call) {
            req.spec->generate(params, 5, call);
            shape_inputs(req.spec->input_fills(params), ends, call);
        };
    req.cpus.clear();
    req.wrapper = {HPCLAB_LAB_STANDIN, trick};
    return run_task(req);
}

Verdict verdict_of(const char* trick, const Params& params, InputEnds ends = InputEnds::none)
{
    return verdict_of_run(add_task(), params, play(trick, params, ends)).verdict;
}

}  // namespace

TEST_CASE("data lab: every invariant of the table judges a lab made of lab.json alone")
{
    REQUIRE(add_task().opted_out.empty());
    for (const InvariantInfo& i : invariant_table()) {
        CAPTURE(i.name);
        CHECK(add_task().judged_by(i.id));
    }
}

TEST_CASE("data lab: an honest program passes, and each mistake fails by a rule that does not name the lab")
{
    const Params p {{"n", 1000}};
    CHECK(verdict_of("vecadd", p) == Verdict::pass);
    // releases: one stream of two left at the call's end; a device buffer made before main and held.
    CHECK(verdict_of("leave_stream", p) == Verdict::not_released);
    CHECK(verdict_of("held_from_start", p) == Verdict::not_released);
    // The outputs and inputs, read by the parent.
    CHECK(verdict_of("zero_outputs", p) == Verdict::wrong_answer);
    CHECK(verdict_of("modify_input", p) == Verdict::input_modified);
    CHECK(verdict_of("skip_compute", p) == Verdict::no_output);
    // device_finishes: its outputs are on the device; both inputs copied back to the host.
    CHECK(verdict_of("read_back", p) == Verdict::not_on_gpu);
    // range_ends: a value at the top of the range handled as past it, which random inputs never draw.
    CHECK(verdict_of("top_end", p) == Verdict::pass);
    CHECK(verdict_of("top_end", p, InputEnds::all_high) == Verdict::wrong_answer);
    CHECK(verdict_of("vecadd", p, InputEnds::all_high) == Verdict::pass);
    // own_code is judged from the build (its kernels' origins), which a stand-in has not:
    // tests/cpu/check/test_check_evidence.cpp judges it for any task.
}

TEST_CASE("data lab: no_state orders its sizes as every lab's, and one_thread_per holds its launches")
{
    const std::vector<const TaskInfo*> tasks {&add_task()};
    const auto plan = plan_runs(scale_lab(), tasks, false, false, 0, 11);
    // Three sizes, the smallest again, then range_ends' four shapes at n = 65537 (the largest not a multiple of a block).
    REQUIRE(plan.size() == 8);
    CHECK(plan.front().size.params.at("n") != 65537);
    CHECK(plan[3].again == 1);
    CHECK(plan[3].size.params.at("n") == 1);
    for (std::size_t k = 4; k < plan.size(); ++k) {
        CAPTURE(k);
        CHECK(plan[k].ends != InputEnds::none);
        CHECK(!plan[k].sanitizer());
        CHECK(plan[k].size.params.at("n") == 65537);
    }
    // <<<n, 1024>>> at n = 65537: 65537 blocks, past an H100's 4224 resident ones.
    SizeRun run {add_task().sizes.back(), {}};
    CallReport call;
    call.done = true;
    call.trace.traced = 1;
    call.trace.kernels = 1;
    call.trace.kernel[0].grid[0] = 65537;
    call.trace.kernel[0].block[0] = 1024;
    call.trace.kernel[0].grid[1] = call.trace.kernel[0].grid[2] = call.trace.kernel[0].block[1] =
        call.trace.kernel[0].block[2] = 1;
    run.report.calls.push_back(call);
    const auto f = finding_of_thread_count(add_task(), {run}, 132);
    REQUIRE(f);
    CHECK(f->kind == Verdict::wrong_launch);
}

TEST_CASE("data lab: a lesson fact its lab.json names is judged by the table's one rule, at the sizes it says")
{
    // The data lab with two facts of the table asked: the lab's own text, one key added.
    std::string json = read_text_file(test::test_data() / "datalab" / "labs" / "scale" / "lab.json").value_or("");
    const std::string before = R"("expect": {"one_thread_per": ["n"]})";
    REQUIRE(json.find(before) != std::string::npos);
    json.replace(json.find(before), before.size(),
                 R"("expect": {"one_thread_per": ["n"], "shows": ["no_device_malloc", {"fact": "launch_2d", "from": {"n": 1000}}]})");
    test::TempDir dir;
    const LabInfo lab = Catalog::load_lab(dir.path(), dir.write("labs/scale/lab.json", json));
    const TaskInfo& add = lab.tasks.front();
    wire::CallTrace t {};
    t.traced = 1;
    t.kernels = 1;
    t.kernel[0].grid[0] = 1;
    t.kernel[0].block[0] = 1000;
    t.kernel[0].grid[1] = t.kernel[0].grid[2] = t.kernel[0].block[1] = t.kernel[0].block[2] = 1;
    // A 1-D launch: below the fact's "from" it is not asked, from it on it is.
    CHECK(findings_of_trace(add, {{"n", 1}}, t).empty());
    auto f = findings_of_trace(add, {{"n", 1000}}, t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::wrong_launch);
    CHECK(f[0].message.find("2-D launch") != std::string::npos);
    // A cudaMalloc in the call, at every size; the lab's task without the facts says nothing of it.
    t.allocations = 1;
    t.allocated_bytes = 4000;
    f = findings_of_trace(add, {{"n", 1}}, t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("allocated device memory (1 cudaMalloc, 4000 bytes)") != std::string::npos);
    CHECK(findings_of_trace(add_task(), {{"n", 1}}, t).empty());
}
