// The histogram lab's specs: the counts of n ints in [0, bins), uniform or
// with a share of one value (the fill's fold), against hand-computed counts;
// what the check says of the classic mistakes (d_hist never zeroed, zeroed
// in part, updates lost, counted twice); and the facts each task asks.
#include "check/plan.h"
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace {

using namespace hpclab;
using namespace hpclab::test;

bool details_mention(const CheckResult& r, std::string_view what)
{
    return std::any_of(r.details.begin(), r.details.end(), [&](const std::string& d) { return contains(d, what); });
}

void poison_plus(CallBuffers& call, std::span<const int> counts, std::size_t from)
{
    const auto hist = call.get<int>("hist");
    for (std::size_t k = 0; k < hist.size(); ++k) {
        const std::uint32_t v = static_cast<std::uint32_t>(counts[k]) + (k >= from ? wire::kPoison32 : 0u);
        std::memcpy(&hist[k], &v, 4);
    }
}

}  // namespace

TEST_CASE("histogram: buffers: the array on the device, bins counts on the device")
{
    const Params p {{"n", 1000}, {"bins", 7}, {"hot", 0}};
    for (const char* t : {"global", "shared"}) {
        CAPTURE(t);
        const auto decls = spec_of("histogram", t).buffers(p);
        REQUIRE(decls.size() == 2);
        CHECK(decls[0].name == "a");
        CHECK(decls[0].count == 1000);
        CHECK(decls[1].name == "hist");
        CHECK(decls[1].place == Place::device);
        CHECK(decls[1].role == Role::output);
        CHECK(decls[1].count == 7);
    }
}

TEST_CASE("histogram: the reference counts each value (hand-computed)")
{
    const Params p {{"n", 6}, {"bins", 4}, {"hot", 0}};
    const TaskSpec& spec = spec_of("histogram", "global");
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {3, 0, 3, 3, 1, 0});
    CHECK(reference_all(spec, p, b.view(), "hist") == std::vector<double> {2, 1, 0, 3});
}

TEST_CASE("histogram: the inputs lie in 0 .. bins-1, and `hot` percent of them hold the middle bin")
{
    const TaskSpec& spec = spec_of("histogram", "shared");
    for (std::int64_t hot : {0, 10, 40, 90}) {
        CAPTURE(hot);
        const Params p {{"n", 200000}, {"bins", 256}, {"hot", hot}};
        OwnedCallBuffers b(spec.buffers(p));
        spec.generate(p, 17, b.view());
        const auto a = b.view().get<int>("a");
        CHECK(*std::min_element(a.begin(), a.end()) == 0);
        CHECK(*std::max_element(a.begin(), a.end()) == 255);
        const double share = double(std::count(a.begin(), a.end(), 127)) / double(a.size());
        // The hot value's share, the uniform 1/256 of the rest included.
        CHECK(share == doctest::Approx(hot / 100.0 + (1 - hot / 100.0) / 256).epsilon(0.05));
    }
}

TEST_CASE("histogram: the check says what d_hist never zeroed, zeroed in part, lost updates and double counts look like")
{
    const TaskSpec& spec = spec_of("histogram", "global");
    const Params p {{"n", 10}, {"bins", 8}, {"hot", 0}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {0, 1, 2, 3, 4, 5, 6, 7, 7, 7});
    const std::vector<int> right {1, 1, 1, 1, 1, 1, 1, 3};
    const CheckInput in {.task = task_of("histogram", "global"), .params = p, .buffers = b.view()};
    poison_plus(b.view(), right, 8);
    CHECK(spec.check(in).ok());

    poison_plus(b.view(), right, 0);  // never zeroed
    const CheckResult never = spec.check(in);
    CHECK_FALSE(never.ok());
    CHECK(details_mention(never, "every bin is the garbage"));
    // Never zeroed, and the first bin no element falls in: the garbage itself, never written.
    fill<int>(b.view(), "a", {7, 1, 2, 3, 4, 5, 6, 6, 6, 6});
    const std::vector<int> gap {0, 1, 1, 1, 1, 1, 4, 1};
    poison_plus(b.view(), gap, 0);
    const CheckResult unwritten = spec.check(in);
    CHECK(unwritten.kind == CheckResult::Kind::unwritten);
    CHECK(details_mention(unwritten, "cudaMemset(d_hist, 0, bins * sizeof(int))"));
    fill<int>(b.view(), "a", {0, 1, 2, 3, 4, 5, 6, 7, 7, 7});

    poison_plus(b.view(), right, 2);  // cudaMemset(d_hist, 0, bins): bins bytes
    const CheckResult part = spec.check(in);
    CHECK(details_mention(part, "6 of the 8 bins, from bin 2 on"));
    CHECK(details_mention(part, "in bytes"));

    fill<int>(b.view(), "hist", {1, 1, 1, 1, 1, 1, 1, 1});  // a plain ++: two of the three 7s lost
    const CheckResult lost = spec.check(in);
    CHECK(lost.summary.find("bin 7") != std::string::npos);
    CHECK(details_mention(lost, "2 updates were lost"));

    fill<int>(b.view(), "hist", {1, 1, 1, 1, 1, 1, 1, 9});  // every peer adds the group's size
    CHECK(details_mention(spec.check(in), "more than the 10 elements"));
}

TEST_CASE("histogram: each task asks its lesson's facts, and the grid check bites at the largest regular size")
{
    CHECK(task_of("histogram", "global").expect.one_thread_per == std::vector<std::string> {"n"});
    CHECK(task_of("histogram", "global").expect.shows.empty());
    const TaskInfo& task = task_of("histogram", "shared");
    CHECK(task.technique == "shared_memory");
    CHECK(task.expect.asks(LessonFact::shared_atomics));
    CHECK(task.expect.asks(LessonFact::grid_fills_gpu_once)->blocks_per_sm == 32);
    std::int64_t largest = 0;
    for (const auto& s : task.sizes)
        if (!s.big) largest = std::max(largest, s.params.at("n"));
    CHECK((largest + 255) / 256 > 32 * 132);  // one block per 256 elements passes an H100's or H200's bound
    // Racecheck runs where blocks share memory: the private histogram's zeroing, counting and merge.
    const auto plan = plan_runs(lab_of("histogram"), {&task}, false, true);
    CHECK(std::count_if(plan.begin(), plan.end(), [](const PlannedRun& r) { return r.tool == "racecheck"; }) == 1);
}
