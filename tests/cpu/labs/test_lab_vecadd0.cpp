// vecadd0's spec: the reference and the input generator, against hand-computed sums.
#include "course/lab_catalog.h"
#include "course/random.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace {

using hpclab::CheckResult;
using namespace hpclab::test;

double reference_sum(int a, int b)
{
    hpclab::OwnedCallBuffers buf(spec_of("vecadd0", "add").buffers({}));
    buf.view().get<int>("a")[0] = a;
    buf.view().get<int>("b")[0] = b;
    return reference_all(spec_of("vecadd0", "add"), {}, buf.view(), "c")[0];
}

CheckResult check_sum(int a, int b, std::uint32_t c_bits)
{
    hpclab::OwnedCallBuffers buf(spec_of("vecadd0", "add").buffers({}));
    buf.view().get<int>("a")[0] = a;
    buf.view().get<int>("b")[0] = b;
    buf.view().get<int>("c")[0] = static_cast<int>(c_bits);
    const hpclab::Params params;
    const hpclab::CheckInput in {.task = task_of("vecadd0", "add"), .params = params, .buffers = buf.view()};
    return spec_of("vecadd0", "add").check(in);
}

}  // namespace

TEST_CASE("vecadd0: three host buffers of one int, no size parameters")
{
    const auto decls = spec_of("vecadd0", "add").buffers({});
    REQUIRE(decls.size() == 3);
    CHECK(decls[0].name == "a");
    CHECK(decls[1].name == "b");
    CHECK(decls[2].name == "c");
    for (const auto& d : decls) {
        CHECK(d.count == 1);
        CHECK(d.place == hpclab::Place::host);
    }
    CHECK(decls[2].role == hpclab::Role::output);
    CHECK(task_of("vecadd0", "add").sizes.size() == 1);
    CHECK(task_of("vecadd0", "add").sizes[0].params.empty());
    CHECK(task_of("vecadd0", "add").demo.empty());
}

TEST_CASE("vecadd0: the reference adds, negative and extreme ints included")
{
    CHECK(reference_sum(2, 7) == 9);
    CHECK(reference_sum(-5, 3) == -2);
    CHECK(reference_sum(-1000, -24) == -1024);
    CHECK(reference_sum(1073741823, 1073741823) == 2147483646);      // (2^30 - 1) * 2
    CHECK(reference_sum(-1073741824, -1073741824) == -2147483648.0);  // -2^31, still an int
}

TEST_CASE("vecadd0: inputs stay in [-2^30, 2^30 - 1], never both zero, never sum to the poison")
{
    hpclab::OwnedCallBuffers buf(spec_of("vecadd0", "add").buffers({}));
    bool negative = false, positive = false;
    for (std::uint64_t seed = 0; seed < 2000; ++seed) {
        spec_of("vecadd0", "add").generate({}, seed, buf.view());
        const int a = buf.view().get<int>("a")[0];
        const int b = buf.view().get<int>("b")[0];
        REQUIRE(a >= -(1 << 30));
        REQUIRE(a <= (1 << 30) - 1);
        REQUIRE(b >= -(1 << 30));
        REQUIRE(b <= (1 << 30) - 1);
        REQUIRE_FALSE((a == 0 && b == 0));
        const std::int64_t sum = std::int64_t {a} + b;
        REQUIRE(sum != static_cast<std::int32_t>(hpclab::wire::kPoison32));
        negative = negative || a < 0 || b < 0;
        positive = positive || a > 0 || b > 0;
    }
    CHECK(negative);
    CHECK(positive);
    // Same seed, same inputs.
    spec_of("vecadd0", "add").generate({}, 42, buf.view());
    const int a1 = buf.view().get<int>("a")[0];
    spec_of("vecadd0", "add").generate({}, 42, buf.view());
    CHECK(buf.view().get<int>("a")[0] == a1);
}

TEST_CASE("vecadd0: the check passes the sum and names a wrong or missing one")
{
    CHECK(check_sum(2, 7, 9).ok());
    CHECK(check_sum(-5, 3, static_cast<std::uint32_t>(-2)).ok());

    const CheckResult wrong = check_sum(2, 7, 10);
    CHECK(wrong.kind == CheckResult::Kind::mismatch);
    CHECK(contains(wrong.summary, "the sum *c"));
    CHECK(contains(wrong.summary, "expected 9, got 10"));

    const CheckResult unwritten = check_sum(2, 7, hpclab::wire::kPoison32);
    CHECK(unwritten.kind == CheckResult::Kind::unwritten);
    CHECK(contains(unwritten.summary, "never written"));
}
