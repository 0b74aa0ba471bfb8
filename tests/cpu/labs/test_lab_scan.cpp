// The scan lab's specs: inclusive prefix sums, of each segment of 1024 on
// its own (blocks) or of the whole array (scan), against hand-computed
// sums; sums that wrap around as int additions do; where a wrong element
// is said to be.
#include "check/plan.h"
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <climits>
#include <string>

namespace {

using namespace hpclab;
using namespace hpclab::test;

}  // namespace

TEST_CASE("scan: buffers: the array and its sums, n ints each on the device")
{
    const Params p {{"n", 1000}};
    for (const char* t : {"blocks", "scan"}) {
        CAPTURE(t);
        const auto decls = spec_of("scan", t).buffers(p);
        REQUIRE(decls.size() == 2);
        CHECK(decls[0].name == "a");
        CHECK(decls[1].name == "b");
        CHECK(decls[1].place == Place::device);
        CHECK(decls[1].role == Role::output);
        CHECK(decls[1].count == 1000);
        CHECK(spec_of("scan", t).work(p).bytes == doctest::Approx(8000.0));
    }
}

TEST_CASE("scan: the references: running sums, restarted at each segment of 1024 in the blocks task (hand-computed)")
{
    const Params small {{"n", 5}};
    OwnedCallBuffers b(spec_of("scan", "scan").buffers(small));
    fill<int>(b.view(), "a", {3, -7, 1000, -1000, 12});
    CHECK(reference_all(spec_of("scan", "scan"), small, b.view(), "b") == std::vector<double> {3, -4, 996, -4, 8});
    CHECK(reference_all(spec_of("scan", "blocks"), small, b.view(), "b") == std::vector<double> {3, -4, 996, -4, 8});

    const Params two {{"n", 1026}};
    OwnedCallBuffers c(spec_of("scan", "scan").buffers(two));
    std::vector<int> ones(1026, 1);
    fill<int>(c.view(), "a", ones);
    const auto whole = reference_all(spec_of("scan", "scan"), two, c.view(), "b");
    const auto segments = reference_all(spec_of("scan", "blocks"), two, c.view(), "b");
    CHECK(whole[1023] == 1024);
    CHECK(whole[1025] == 1026);
    CHECK(segments[1023] == 1024);
    CHECK(segments[1024] == 1);  // the second segment starts again
    CHECK(segments[1025] == 2);
    CHECK(spec_of("scan", "blocks").locate(two, "b", 1025) == "the sum of a[1024] .. a[1025], segment 1");
    CHECK(spec_of("scan", "scan").locate(two, "b", 1025) == "the sum of a[0] .. a[1025]");
}

TEST_CASE("scan: sums wrap around as int additions do")
{
    const Params p {{"n", 3}};
    OwnedCallBuffers b(spec_of("scan", "scan").buffers(p));
    fill<int>(b.view(), "a", {INT_MAX, 1, 1});
    CHECK(reference_all(spec_of("scan", "scan"), p, b.view(), "b") == std::vector<double> {INT_MAX, INT_MIN, INT_MIN + 1.0});
}

TEST_CASE("scan: the sizes reach a third level of reduce-then-scan, and both tasks keep to the lesson's shared memory")
{
    for (const char* t : {"blocks", "scan"}) {
        CAPTURE(t);
        const TaskInfo& task = task_of("scan", t);
        CHECK(task.technique == "shared_memory");
        bool three_levels = false;
        for (const auto& s : task.sizes) three_levels |= !s.big && s.params.at("n") > 1024 * 1024;
        CHECK(three_levels);
    }
}

TEST_CASE("scan: a running sum that equals hpclab's poison is a written element, not a missing one")
{
    // Sums of 2^26 ints span every 32-bit value: one in 2^32 of them is the
    // poison's bits, about once in 64 calls of the demo size.
    const TaskSpec& spec = spec_of("scan", "scan");
    const Params p {{"n", 3}};
    OwnedCallBuffers b(spec.buffers(p));
    const int poison = static_cast<int>(wire::kPoison32);
    fill<int>(b.view(), "a", {poison, 1, -1});
    fill<int>(b.view(), "b", {poison, poison + 1, poison});
    const CheckInput in {.task = task_of("scan", "scan"), .params = p, .buffers = b.view()};
    const CheckResult right = spec.check(in);
    CHECK(right.ok());
    CHECK(right.unwritten == 0);
    fill<int>(b.view(), "b", {poison, poison, poison});  // b[1] left as it was: unwritten
    const CheckResult missing = spec.check(in);
    CHECK(missing.kind == CheckResult::Kind::unwritten);
    CHECK(missing.summary.find("b[1] was never written") != std::string::npos);
}
