// vecadd2's spec: the reference, and the check of the return value for n that
// fit one block (0 and the sum) and n that do not (-1, the output not judged).
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

namespace {

using hpclab::CheckResult;
using namespace hpclab::test;

// One call of vecadd2 at size n with a = 0, 1, 2, ..., b = 10, 20, 30, ...,
// c as given (the poison where `c` is shorter than n), returning `returned`.
CheckResult check_call(const char* task, long long n, int returned, const std::vector<int>& c, int launch_error = 0)
{
    const hpclab::Params p {{"n", n}};
    const hpclab::TaskInfo& info = task_of("vecadd2", task);
    hpclab::OwnedCallBuffers buf(spec_of("vecadd2", task).buffers(p));
    auto a = buf.view().get<int>("a");
    auto b = buf.view().get<int>("b");
    auto out = buf.view().get<int>("c");
    for (long long i = 0; i < n; ++i) {
        a[i] = static_cast<int>(i);
        b[i] = static_cast<int>(10 * (i + 1));
        out[i] = i < static_cast<long long>(c.size()) ? c[i] : static_cast<int>(hpclab::wire::kPoison32);
    }
    const hpclab::CheckInput in {
        .task = info, .params = p, .buffers = buf.view(), .returned = returned, .launch_error = launch_error};
    return spec_of("vecadd2", task).check(in);
}

}  // namespace

TEST_CASE("vecadd2: the reference adds element by element")
{
    const hpclab::Params p {{"n", 3}};
    hpclab::OwnedCallBuffers buf(spec_of("vecadd2", "add").buffers(p));
    fill<int>(buf.view(), "a", {7, -7, 2147483});
    fill<int>(buf.view(), "b", {5, -5, -3});
    CHECK(reference_all(spec_of("vecadd2", "add"), p, buf.view(), "c") == std::vector<double> {12, -12, 2147480});
}

TEST_CASE("vecadd2: n that fits one block: 0 and the right sum pass")
{
    CHECK(check_call("add", 4, 0, {10, 21, 32, 43}).ok());
    CHECK(check_call("add", 1024, 0, [] {
              std::vector<int> c(1024);
              for (int i = 0; i < 1024; ++i) c[i] = i + 10 * (i + 1);
              return c;
          }()).ok());
}

TEST_CASE("vecadd2: n that fits one block: a wrong element or a wrong return fails")
{
    const CheckResult wrong = check_call("add", 4, 0, {10, 99, 32, 43});
    CHECK(wrong.kind == CheckResult::Kind::mismatch);
    CHECK(contains(wrong.summary, "c[1]"));
    CHECK(contains(wrong.summary, "thread 1"));
    CHECK(contains(wrong.summary, "expected 21, got 99"));

    const CheckResult refused = check_call("add", 1000, -1, {});
    CHECK(refused.kind == CheckResult::Kind::wrong_return);
    CHECK(contains(refused.summary, "returned -1 for n = 1000"));
    CHECK(contains(refused.summary, "fits one block"));
}

TEST_CASE("vecadd2: n past the block limit: -1 passes, whatever c holds")
{
    const CheckResult r = check_call("too_many", 1025, -1, {});
    CHECK(r.ok());
    CHECK(contains(r.summary, "returned -1"));
    CHECK(check_call("too_many", 2000, -1, {1, 2, 3}).ok());
}

TEST_CASE("vecadd2: n past the block limit: any other return fails and says why")
{
    const CheckResult r = check_call("too_many", 2000, 0, {});
    CHECK(r.kind == CheckResult::Kind::wrong_return);
    CHECK(contains(r.summary, "returned 0 for n = 2000"));
    CHECK(contains(r.summary, "do not fit one block"));
    CHECK(contains(r.summary, "return -1"));

    // The launch of 1 block of n threads was tried and refused by the GPU.
    const CheckResult launched = check_call("too_many", 100000, 0, {}, 9 /* cudaErrorInvalidConfiguration */);
    CHECK(launched.kind == CheckResult::Kind::wrong_return);
    bool said = false;
    for (const auto& d : launched.details) said = said || contains(d, "a kernel launch failed (CUDA error 9)");
    CHECK(said);

    CHECK(check_call("too_many", 1025, 1, {}).kind == CheckResult::Kind::wrong_return);
}

TEST_CASE("vecadd2: the sizes of each task are on their side of the 1024-thread limit")
{
    for (const auto& s : task_of("vecadd2", "add").sizes) CHECK(s.params.at("n") <= 1024);
    for (const auto& s : task_of("vecadd2", "too_many").sizes) CHECK(s.params.at("n") > 1024);
    CHECK(task_of("vecadd2", "add").demo.at("n") <= 1024);
    CHECK(task_of("vecadd2", "too_many").demo.at("n") > 1024);
}
