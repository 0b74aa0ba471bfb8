// hello's spec: the check of the printed lines, against hand-made outputs.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using hpclab::CheckResult;
using namespace hpclab::test;

// The check of one call of hello(blocks, threads) that printed `printed`
// before returning and `late` after.
CheckResult check_hello(long long blocks, long long threads, const std::string& printed, const std::string& late = "")
{
    const hpclab::Params params {{"blocks", blocks}, {"threads", threads}};
    const hpclab::TaskSpec& spec = spec_of("hello", "hello");
    hpclab::OwnedCallBuffers buffers(spec.buffers(params));
    const hpclab::CheckInput in {
        .task = task_of("hello", "hello"),
        .params = params,
        .buffers = buffers.view(),
        .printed = printed,
        .printed_late = late,
    };
    return spec.check(in);
}

std::string line(int block, int thread)
{
    return "Hello from block " + std::to_string(block) + ", thread " + std::to_string(thread) + "\n";
}

// Every line of a 2 x 4 launch, in an order a GPU might print them.
std::string all_2x4()
{
    std::string out;
    for (int t = 0; t < 4; ++t) out += line(1, t);
    for (int t = 3; t >= 0; --t) out += line(0, t);
    return out;
}

}  // namespace

TEST_CASE("hello: no buffers at any size")
{
    CHECK(spec_of("hello", "hello").buffers({{"blocks", 8}, {"threads", 1024}}).empty());
}

TEST_CASE("hello: every line once, in any order, passes, and host lines are ignored")
{
    const std::string host = "Hello from the host: launching 2 blocks of 4 threads\n";
    const CheckResult r = check_hello(2, 4, host + all_2x4() + "\n");
    CHECK(r.ok());
    CHECK(r.checked == 8);
    CHECK(r.wrong == 0);
    CHECK(contains(r.summary, "all 8 threads"));

    const CheckResult one = check_hello(1, 1, line(0, 0));
    CHECK(one.ok());
    // Trailing blanks and a last line without its newline still count.
    CHECK(check_hello(1, 2, "Hello from block 0, thread 0  \r\nHello from block 0, thread 1").ok());
}

TEST_CASE("hello: a missing line names the first missing thread")
{
    std::string printed;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 4; ++t)
            if (!(b == 1 && t == 2) && !(b == 1 && t == 3)) printed += line(b, t);
    const CheckResult r = check_hello(2, 4, printed);
    CHECK(r.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(r.summary, "block 1, thread 2 printed nothing"));
    CHECK(contains(r.summary, "2 of 8 lines are missing"));
    CHECK(r.wrong == 2);

    // Nothing at all (the skeleton): block 0, thread 0 is the first missing.
    const CheckResult none = check_hello(3, 100, "Hello from the host: launching 3 blocks of 100 threads\n");
    CHECK(none.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(none.summary, "block 0, thread 0 printed nothing: 300 of 300"));
}

TEST_CASE("hello: a line in another format is shown when lines are missing")
{
    const CheckResult r = check_hello(1, 2, "Hello from block 0 thread 0\nHello from block 0 thread 1\n");
    CHECK(r.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(r.summary, "block 0, thread 0 printed nothing"));
    bool shown = false;
    for (const auto& d : r.details) shown = shown || contains(d, "\"Hello from block 0 thread 0\"");
    CHECK(shown);
    // Extra words after the numbers do not count either.
    CHECK_FALSE(check_hello(1, 1, "Hello from block 0, thread 0 of 1\n").ok());
}

TEST_CASE("hello: a thread printing twice fails")
{
    const CheckResult r = check_hello(2, 4, all_2x4() + line(0, 3));
    CHECK(r.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(r.summary, "block 0, thread 3 printed 2 lines"));
    CHECK(r.wrong == 1);

    // The kernel launched twice: every line twice.
    const CheckResult twice = check_hello(2, 4, all_2x4() + all_2x4());
    CHECK(twice.kind == CheckResult::Kind::wrong_output);
    CHECK(twice.wrong == 8);
}

TEST_CASE("hello: a thread outside the launch fails (blocks and threads swapped)")
{
    // <<<4, 2>>> where <<<2, 4>>> was asked.
    std::string swapped;
    for (int b = 0; b < 4; ++b)
        for (int t = 0; t < 2; ++t) swapped += line(b, t);
    const CheckResult r = check_hello(2, 4, swapped);
    CHECK(r.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(r.summary, "\"Hello from block 2, thread 0\" is not a thread of the launch"));
    CHECK(contains(r.summary, "2 blocks of 4 threads"));
    // 4 lines outside (blocks 2 and 3), 4 threads missing (threads 2 and 3 of blocks 0 and 1).
    CHECK(r.wrong == 8);

    CHECK_FALSE(check_hello(1, 1, line(0, 0) + "Hello from block -1, thread 0\n").ok());
}

TEST_CASE("hello: lines that come only after the return mean the host did not wait")
{
    const std::string host = "Hello from the host: launching 2 blocks of 4 threads\n";
    const CheckResult r = check_hello(2, 4, host, all_2x4());
    CHECK(r.kind == CheckResult::Kind::wrong_output);
    CHECK(contains(r.summary, "8 of 8 lines came out only after hello() returned"));
    CHECK(contains(r.summary, "did not wait"));
    REQUIRE_FALSE(r.details.empty());
    CHECK(contains(r.details.front(), "cudaDeviceSynchronize()"));
    CHECK(contains(r.details.front(), "cudaCheckError()"));

    // A right call, followed by the next call's lines: the late part is not judged.
    CHECK(check_hello(2, 4, all_2x4(), host + all_2x4()).ok());
    // Missing lines that come late nowhere either: a plain "missing".
    const CheckResult missing = check_hello(2, 4, host, host);
    CHECK(contains(missing.summary, "printed nothing"));
}
