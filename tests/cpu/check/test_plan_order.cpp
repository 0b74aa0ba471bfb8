// The invariant no_state (course/invariants.h) as the plan makes it: each
// task's plain sizes in one program, in an order drawn from the check's seed
// whose first is never the largest, then the smallest again on fresh inputs.
#include "check/plan.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace hpclab;
using namespace hpclab::test;

namespace {

// Some call runs after a larger one, and some after a smaller one.
bool turns_both_ways(const std::vector<std::uint64_t>& bytes, const std::vector<std::size_t>& order)
{
    bool larger_first = false, smaller_first = false;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j) {
            larger_first = larger_first || bytes[order[i]] > bytes[order[j]];
            smaller_first = smaller_first || bytes[order[i]] < bytes[order[j]];
        }
    return larger_first && smaller_first;
}

}  // namespace

TEST_CASE("plan order: every size once, never the largest first, then the smallest again, the same order for the same seed")
{
    for (std::size_t n = 1; n <= 7; ++n) {
        std::vector<std::uint64_t> bytes;
        for (std::size_t i = 0; i < n; ++i) bytes.push_back((i * 7919 % 13 + 1) * 1000 + i);  // distinct, unsorted
        std::set<std::vector<std::size_t>> orders;
        for (std::uint64_t seed = 0; seed < 40; ++seed) {
            CAPTURE(n);
            CAPTURE(seed);
            const auto order = plain_size_order(bytes, seed);
            REQUIRE(order.size() == n + 1);
            std::vector<std::size_t> once(order.begin(), order.end() - 1);
            std::sort(once.begin(), once.end());
            for (std::size_t i = 0; i < n; ++i) CHECK(once[i] == i);
            CHECK(order.back() == static_cast<std::size_t>(std::min_element(bytes.begin(), bytes.end()) - bytes.begin()));
            if (n >= 2) {
                CHECK(turns_both_ways(bytes, order));
                CHECK(bytes[order.front()] < *std::max_element(bytes.begin(), bytes.end()));
            }
            CHECK(plain_size_order(bytes, seed) == order);
            orders.insert(order);
        }
        // The program cannot know which size comes first.
        if (n >= 3) CHECK(orders.size() >= 3);
    }
}

TEST_CASE("plan order: sizes given sorted either way still turn")
{
    const std::vector<std::uint64_t> up {1, 2, 3, 4}, down {4, 3, 2, 1};
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        CHECK(turns_both_ways(up, plain_size_order(up, seed)));
        CHECK(turns_both_ways(down, plain_size_order(down, seed)));
    }
}

TEST_CASE("plan: every task of every lab runs each plain size once and one again, with a why of its own")
{
    for (const LabInfo& lab : catalog().labs()) {
        if (lab.kind == LabKind::program) continue;
        for (const TaskInfo& task : lab.tasks) {
            CAPTURE(lab.id);
            CAPTURE(task.id);
            REQUIRE(task.judged_by(Invariant::no_state));
            std::vector<PlannedRun> plan;  // without range_ends' runs, which come after (the next test)
            for (auto& r : plan_runs(lab, {&task}, false, false, 0, 12345))
                if (r.ends == InputEnds::none) plan.push_back(std::move(r));
            const auto plain = std::count_if(task.sizes.begin(), task.sizes.end(), [](const SizeCase& s) { return !s.big; });
            REQUIRE(plan.size() == static_cast<std::size_t>(plain) + 1);
            const auto again = std::count_if(plan.begin(), plan.end(), [](const PlannedRun& r) { return r.again > 0; });
            CHECK(again == 1);
            CHECK(plan.back().again == 1);
            CHECK(plan.back().size.why == kAgainWhy);
            // Two seeds of a check, two orders, where there are three sizes to turn.
            if (plain >= 3) {
                bool differs = false;
                for (std::uint64_t seed = 1; seed < 10 && !differs; ++seed) {
                    const auto other = plan_runs(lab, {&task}, false, false, 0, seed);  // the same sizes first
                    for (std::size_t k = 0; k < plan.size(); ++k) differs = differs || !(other[k].size.params == plan[k].size.params);
                }
                CHECK(differs);
            }
        }
    }
}

TEST_CASE("plan: range_ends runs every task whose inputs are all drawn from a range on each shape at a small size, "
          "after its random ones")
{
    int tasks_with_ends = 0, tasks = 0;
    for (const LabInfo& lab : catalog().labs()) {
        if (lab.kind == LabKind::program) continue;
        for (const TaskInfo& task : lab.tasks) {
            ++tasks;
            CAPTURE(lab.id);
            CAPTURE(task.id);
            const TaskSpec& spec = *find_task_spec(lab.id, task.id);
            const auto plan = plan_runs(lab, {&task}, false, false, 0, 3);
            const auto first_ends = std::find_if(plan.begin(), plan.end(),
                                                 [](const PlannedRun& r) { return r.ends != InputEnds::none; });
            CHECK(std::all_of(first_ends, plan.end(), [](const PlannedRun& r) { return r.ends != InputEnds::none; }));
            std::size_t expected = 0;
            for (const SizeCase& s : sanitizer_sizes(spec, task, 1))
                if (!spec.input_fills(s.params).empty() && all_inputs_filled(spec, s.params))
                    expected += every_input_end().size();
            CHECK(static_cast<std::size_t>(plan.end() - first_ends) == expected);
            for (auto r = first_ends; r != plan.end(); ++r) {
                CHECK(!r->sanitizer());
                CHECK(r->size.why.find("range") + r->size.why.find("sorted") != 2 * std::string::npos);
            }
            tasks_with_ends += expected > 0;
        }
    }
    // Every task of the course but hello's one, which has no inputs.
    CHECK(tasks >= 22);
    CHECK(tasks_with_ends == tasks - 1);
}

TEST_CASE("range_ends: each shape keeps every value in its fill's range, sorted or at one end, and leaves the "
          "outputs alone")
{
    const TaskSpec& spec = *find_task_spec("stencil", "shared");
    const Params p {{"n", 1000}};
    const auto fills = spec.input_fills(p);
    REQUIRE(fills.size() == 1);
    for (const InputEnds ends : every_input_end()) {
        OwnedCallBuffers call(spec.buffers(p));
        spec.generate(p, 9, call.view());
        std::vector<int> before(call.view().get<int>("in").begin(), call.view().get<int>("in").end());
        call.view().get<int>("out")[0] = 12345;
        shape_inputs(fills, ends, call.view());
        const auto in = call.view().get<int>("in");
        CHECK(call.view().get<int>("out")[0] == 12345);
        CHECK(std::all_of(in.begin(), in.end(), [&](int v) { return v >= fills[0].lo && v <= fills[0].hi; }));
        switch (ends) {
        case InputEnds::ascending:
        case InputEnds::descending: {
            CHECK((ends == InputEnds::ascending ? std::is_sorted(in.begin(), in.end())
                                                : std::is_sorted(in.rbegin(), in.rend())));
            std::sort(before.begin(), before.end());
            std::vector<int> after(in.begin(), in.end());
            std::sort(after.begin(), after.end());
            CHECK(after == before);  // the random values, reordered
            break;
        }
        case InputEnds::all_low: CHECK(std::count(in.begin(), in.end(), -1000) == static_cast<long>(in.size())); break;
        case InputEnds::all_high: CHECK(std::count(in.begin(), in.end(), 1000) == static_cast<long>(in.size())); break;
        case InputEnds::none: break;
        }
    }
    CHECK(describe_input_ends(fills, InputEnds::all_high) == "every element at the top of its range (in = 1000)");
}

TEST_CASE("plan: memcheck also runs where every thread of a grid the GPU holds at once loops twice, the last trip partial")
{
    const int sms = 132;  // an H100; H200 the same
    const LabInfo& warpreduce = lab_of("warpreduce");
    const auto plan = plan_runs(warpreduce, {&warpreduce.tasks.front()}, false, true, 0, 1, sms);
    const auto trip = std::find_if(plan.begin(), plan.end(), [](const PlannedRun& r) {
        return r.tool == "memcheck" && r.size.params.at("n") == 2 * 2048 * 132 + 7;
    });
    REQUIRE(trip != plan.end());
    CHECK(trip->size.why.find("loops twice") != std::string::npos);
    // Without the GPU's multiprocessors, or without the sanitizer, none; a 2-D lab has none (its tile
    // loops run twice at the listed sizes: matmul's n = 100 has four tiles a row).
    const auto none = [](const std::vector<PlannedRun>& p) {
        return std::none_of(p.begin(), p.end(), [](const PlannedRun& r) { return r.size.why.find("loops twice") != std::string::npos; });
    };
    CHECK(none(plan_runs(warpreduce, {&warpreduce.tasks.front()}, false, true, 0, 1, 0)));
    CHECK(none(plan_runs(warpreduce, {&warpreduce.tasks.front()}, false, false, 0, 1, sms)));
    const LabInfo& rotation = lab_of("rotation");
    CHECK(none(plan_runs(rotation, {&rotation.tasks.front()}, false, true, 0, 1, sms)));
    // Every one-parameter lab whose contract reaches that size gets it.
    for (const char* id : {"vecadd3", "reduction", "stencil", "symbols", "aos_soa", "streams"}) {
        CAPTURE(id);
        const LabInfo& lab = lab_of(id);
        CHECK_FALSE(none(plan_runs(lab, {&lab.tasks.front()}, false, true, 0, 1, sms)));
    }
    // A lab whose length n stands beside other parameters: n that size, the others as its first sanitizer size.
    const LabInfo& histogram = lab_of("histogram");
    for (const TaskInfo& task : histogram.tasks) {
        CAPTURE(task.id);
        const auto runs = plan_runs(histogram, {&task}, false, true, 0, 1, sms);
        const auto at = std::find_if(runs.begin(), runs.end(), [](const PlannedRun& r) { return r.size.why.find("loops twice") != std::string::npos; });
        REQUIRE(at != runs.end());
        CHECK(at->tool == "memcheck");
        CHECK(at->size.params.at("n") == 2 * 2048 * 132 + 7);
        const SizeCase first = sanitizer_sizes(*find_task_spec("histogram", task.id), task, 1).front();
        CHECK(at->size.params.at("bins") == first.params.at("bins"));
        CHECK(at->size.params.at("hot") == first.params.at("hot"));
    }
}
