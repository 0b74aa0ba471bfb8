// vecadd1's spec: the reference against hand-computed sums, and where a wrong element is.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

using hpclab::CheckResult;
using namespace hpclab::test;

TEST_CASE("vecadd1: host buffers of n ints")
{
    const auto decls = spec_of("vecadd1", "add").buffers({{"n", 5}});
    REQUIRE(decls.size() == 3);
    for (const auto& d : decls) {
        CHECK(d.count == 5);
        CHECK(d.place == hpclab::Place::host);
    }
}

TEST_CASE("vecadd1: the reference adds element by element")
{
    const hpclab::Params p {{"n", 4}};
    hpclab::OwnedCallBuffers buf(spec_of("vecadd1", "add").buffers(p));
    fill<int>(buf.view(), "a", {1, -2, 3, 1000000});
    fill<int>(buf.view(), "b", {10, 20, -30, -1000000});
    CHECK(reference_all(spec_of("vecadd1", "add"), p, buf.view(), "c") == std::vector<double> {11, 18, -27, 0});
}

TEST_CASE("vecadd1: the check passes the sum and names the block of a wrong element")
{
    const hpclab::Params p {{"n", 4}};
    const hpclab::TaskInfo& task = task_of("vecadd1", "add");
    hpclab::OwnedCallBuffers buf(spec_of("vecadd1", "add").buffers(p));
    auto a = buf.view().get<int>("a");
    auto b = buf.view().get<int>("b");
    auto c = buf.view().get<int>("c");
    std::iota(a.begin(), a.end(), 1);    // 1 2 3 4
    std::iota(b.begin(), b.end(), 100);  // 100 101 102 103
    fill<int>(buf.view(), "c", {101, 103, 105, 107});
    const hpclab::CheckInput in {.task = task, .params = p, .buffers = buf.view()};
    CHECK(spec_of("vecadd1", "add").check(in).ok());

    c[2] = 0;  // as if block 2 never ran and cudaMalloc's memory held 0
    const CheckResult wrong = spec_of("vecadd1", "add").check(in);
    CHECK(wrong.kind == CheckResult::Kind::mismatch);
    CHECK(contains(wrong.summary, "c[2]"));
    CHECK(contains(wrong.summary, "block 2"));
    CHECK(contains(wrong.summary, "expected 105, got 0"));
}

TEST_CASE("vecadd1: the sizes stay within the lab's range and none is big")
{
    const hpclab::TaskInfo& task = task_of("vecadd1", "add");
    for (const auto& s : task.sizes) {
        CHECK_FALSE(s.big);
        CHECK(s.params.at("n") <= 16777216);
    }
    CHECK(task.sizes.front().params.at("n") == 1);
}
