// The warpreduce lab's specs: the sum as reduction's atomic task (a device
// int hpclab fills with garbage), the maximum against hand-computed values,
// the inputs that make a wrong maximum visible (every value negative, the
// maximum last in half the calls), and what the checks say of the classic
// mistakes (a start of 0, a result never set).
#include "check/plan.h"
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

namespace {

using namespace hpclab;
using namespace hpclab::test;

void set_raw(CallBuffers& call, const char* name, std::uint32_t bits)
{
    std::memcpy(call.get<int>(name).data(), &bits, 4);
}

bool details_mention(const CheckResult& r, std::string_view what)
{
    return std::any_of(r.details.begin(), r.details.end(), [&](const std::string& d) { return contains(d, what); });
}

}  // namespace

TEST_CASE("warpreduce: buffers: the array and the result on the device")
{
    const Params p {{"n", 1000}};
    for (const char* t : {"sum", "max"}) {
        CAPTURE(t);
        const auto decls = spec_of("warpreduce", t).buffers(p);
        REQUIRE(decls.size() == 2);
        CHECK(decls[0].name == "a");
        CHECK(decls[0].place == Place::device);
        CHECK(decls[0].count == 1000);
        CHECK(decls[1].name == t);
        CHECK(decls[1].place == Place::device);
        CHECK(decls[1].role == Role::output);
        CHECK(decls[1].count == 1);
        CHECK(spec_of("warpreduce", t).work(p).bytes == doctest::Approx(4000.0));
    }
}

TEST_CASE("warpreduce: the references: the wrapped sum and the largest value (hand-computed)")
{
    const Params p {{"n", 5}};
    OwnedCallBuffers s(spec_of("warpreduce", "sum").buffers(p));
    fill<int>(s.view(), "a", {3, -7, 1000, -1000, 12});
    CHECK(reference_all(spec_of("warpreduce", "sum"), p, s.view(), "sum")[0] == 8);
    OwnedCallBuffers m(spec_of("warpreduce", "max").buffers(p));
    fill<int>(m.view(), "a", {-30, -7, -1000, -8, -12});
    CHECK(reference_all(spec_of("warpreduce", "max"), p, m.view(), "max")[0] == -7);
    fill<int>(m.view(), "a", {INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN});
    CHECK(reference_all(spec_of("warpreduce", "max"), p, m.view(), "max")[0] == INT_MIN);
}

TEST_CASE("warpreduce: the maximum's inputs are all negative, and the maximum is the last element in about half the calls")
{
    const TaskSpec& spec = spec_of("warpreduce", "max");
    for (std::int64_t n : {1, 100, 1025, 5000}) {
        CAPTURE(n);
        const Params p {{"n", n}};
        OwnedCallBuffers b(spec.buffers(p));
        int last = 0, non_negative = 0, wide = 0;
        const int seeds = 400;
        for (std::uint64_t seed = 0; seed < seeds; ++seed) {
            spec.generate(p, seed, b.view());
            const auto a = b.view().get<int>("a");
            last += a.back() == *std::max_element(a.begin(), a.end());
            non_negative += static_cast<int>(std::count_if(a.begin(), a.end(), [](int v) { return v >= 0; }));
            wide += static_cast<int>(std::count_if(a.begin(), a.end(), [](int v) { return v < -1000; }));
        }
        CHECK(non_negative == 0);
        CHECK((wide > 0) == (n > 4096));  // small arrays keep values a student can read
        if (n == 1) CHECK(last == seeds);
        else {
            CHECK(last > seeds / 3);      // the tail is where a loop that stops early never looks
            CHECK(last < 2 * seeds / 3);  // and a[n - 1] alone is not the answer
        }
    }
}

TEST_CASE("warpreduce: the sum's check recognises a result never set to zero")
{
    const TaskSpec& spec = spec_of("warpreduce", "sum");
    const Params p {{"n", 5}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {3, -7, 1000, -1000, 12});
    const CheckInput in {.task = task_of("warpreduce", "sum"), .params = p, .buffers = b.view()};
    fill<int>(b.view(), "sum", {8});
    CHECK(spec.check(in).ok());
    set_raw(b.view(), "sum", wire::kPoison32 + 8u);
    const CheckResult garbage = spec.check(in);
    CHECK(garbage.kind == CheckResult::Kind::mismatch);
    CHECK(details_mention(garbage, "cudaMemset"));
    fill<int>(b.view(), "sum", {32});  // 4 times the sum: the shuffle loop started at 32
    const CheckResult four = spec.check(in);
    CHECK(four.summary.find("expected 8, got 32") != std::string::npos);
    CHECK_FALSE(details_mention(four, "cudaMemset"));
}

TEST_CASE("warpreduce: the maximum's check says what a start of 0 and a result never set look like")
{
    const TaskSpec& spec = spec_of("warpreduce", "max");
    const Params p {{"n", 3}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {-417, -5, -90});
    const CheckInput in {.task = task_of("warpreduce", "max"), .params = p, .buffers = b.view()};

    fill<int>(b.view(), "max", {-5});
    CHECK(spec.check(in).ok());

    fill<int>(b.view(), "max", {0});  // cudaMemset(d_max, 0, ...), or threads offering 0
    const CheckResult zero = spec.check(in);
    CHECK(zero.kind == CheckResult::Kind::mismatch);
    CHECK(zero.summary.find("the largest of all 3 elements") != std::string::npos);
    CHECK(zero.summary.find("expected -5, got 0") != std::string::npos);
    CHECK(details_mention(zero, "INT_MIN"));

    set_raw(b.view(), "max", wire::kPoison32);  // atomicMax kept hpclab's garbage
    const CheckResult never = spec.check(in);
    CHECK(never.kind == CheckResult::Kind::unwritten);
    CHECK(details_mention(never, "INT_MIN"));

    fill<int>(b.view(), "max", {-90});  // another wrong maximum: no advice about the start
    const CheckResult other = spec.check(in);
    CHECK(other.kind == CheckResult::Kind::mismatch);
    CHECK_FALSE(details_mention(other, "INT_MIN"));
}

TEST_CASE("warpreduce: the lab asks for shuffles and a grid of a few blocks per multiprocessor in both tasks")
{
    for (const char* t : {"sum", "max"}) {
        CAPTURE(t);
        const TaskInfo& task = task_of("warpreduce", t);
        CHECK(task.technique == "warp_shuffle");
        CHECK(task.expect.asks(LessonFact::grid_fills_gpu_once)->blocks_per_sm == 32);
        REQUIRE(task.threshold);
        CHECK(task.threshold->calibrated);  // on the H100 (docs/results/calibration-h100.txt)
        // The grid check bites at the largest regular size: one block per
        // 1024 elements is more than 32 per multiprocessor of a GPU of up to
        // 500 of them (an H100 has 132).
        std::int64_t largest = 0;
        for (const auto& s : task.sizes)
            if (!s.big) largest = std::max(largest, s.params.at("n"));
        CHECK((largest + 1023) / 1024 > 32 * 500);
    }
}

TEST_CASE("warpreduce: racecheck runs for a warp_shuffle task: the warps' sums meet in shared memory")
{
    const LabInfo& lab = lab_of("warpreduce");
    for (const TaskInfo& task : lab.tasks) {
        CAPTURE(task.id);
        const auto plan = plan_runs(lab, {&task}, false, true);
        CHECK(std::count_if(plan.begin(), plan.end(), [](const PlannedRun& r) { return r.tool == "racecheck"; }) == 1);
    }
}
