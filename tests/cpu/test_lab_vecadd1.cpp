// vecadd1's spec: the reference against hand-computed sums, and where a wrong element is.
#include "core/lab_catalog.h"
#include "core/task_spec.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace {

using hpclab::CheckResult;

const hpclab::TaskSpec& add_spec()
{
    const hpclab::TaskSpec* spec = hpclab::find_task_spec("vecadd1", "add");
    REQUIRE(spec != nullptr);
    return *spec;
}

const hpclab::LabInfo& lab()
{
    static const hpclab::Catalog catalog = hpclab::Catalog::load(HPCLAB_TEST_ROOT);
    const hpclab::LabInfo* l = catalog.find("vecadd1");
    REQUIRE(l != nullptr);
    return *l;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("vecadd1: host buffers of n ints")
{
    const auto decls = add_spec().buffers({{"n", 5}});
    REQUIRE(decls.size() == 3);
    for (const auto& d : decls) {
        CHECK(d.count == 5);
        CHECK(d.place == hpclab::Place::host);
    }
}

TEST_CASE("vecadd1: the reference adds element by element")
{
    const hpclab::Params p {{"n", 4}};
    hpclab::OwnedCallBuffers buf(add_spec().buffers(p));
    const int a[4] = {1, -2, 3, 1000000};
    const int b[4] = {10, 20, -30, -1000000};
    std::copy(a, a + 4, buf.view().get<int>("a").begin());
    std::copy(b, b + 4, buf.view().get<int>("b").begin());
    const std::vector<std::uint64_t> idx = {0, 1, 2, 3};
    std::vector<double> expected(4), scale(4);
    add_spec().reference(p, buf.view(), "c", idx, expected, scale);
    CHECK(expected == std::vector<double> {11, 18, -27, 0});
}

TEST_CASE("vecadd1: the check passes the sum and names the block of a wrong element")
{
    const hpclab::Params p {{"n", 4}};
    const hpclab::TaskInfo* task = lab().find_task("add");
    REQUIRE(task != nullptr);
    hpclab::OwnedCallBuffers buf(add_spec().buffers(p));
    auto a = buf.view().get<int>("a");
    auto b = buf.view().get<int>("b");
    auto c = buf.view().get<int>("c");
    std::iota(a.begin(), a.end(), 1);    // 1 2 3 4
    std::iota(b.begin(), b.end(), 100);  // 100 101 102 103
    const int sums[4] = {101, 103, 105, 107};
    std::copy(sums, sums + 4, c.begin());
    const hpclab::CheckInput in {.task = *task, .params = p, .buffers = buf.view()};
    CHECK(add_spec().check(in).ok());

    c[2] = 0;  // as if block 2 never ran and cudaMalloc's memory held 0
    const CheckResult wrong = add_spec().check(in);
    CHECK(wrong.kind == CheckResult::Kind::mismatch);
    CHECK(contains(wrong.summary, "c[2]"));
    CHECK(contains(wrong.summary, "block 2"));
    CHECK(contains(wrong.summary, "expected 105, got 0"));
}

TEST_CASE("vecadd1: the sizes stay within the lab's range and none is big")
{
    const hpclab::TaskInfo* task = lab().find_task("add");
    REQUIRE(task != nullptr);
    for (const auto& s : task->sizes) {
        CHECK_FALSE(s.big);
        CHECK(s.params.at("n") <= 16777216);
    }
    CHECK(task->sizes.front().params.at("n") == 1);
}
