// The stencil lab's spec: the CPU reference against hand-computed sums, the
// buffers, and what the generic check says about right and wrong outputs.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"
#include "wire/exchange.h"

#include "../../labs/stencil/stencil.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace hpclab;
using namespace hpclab::test;

static_assert(RADIUS == 3, "the hand-computed cases below are for RADIUS 3");

}  // namespace

TEST_CASE("stencil: buffers hold the input with its halo and n outputs, on the device")
{
    const Params p {{"n", 10}};
    const auto decls = spec_of("stencil", "shared").buffers(p);
    REQUIRE(decls.size() == 2);
    CHECK(decls[0].name == "in");
    CHECK(decls[0].role == Role::input);
    CHECK(decls[0].place == Place::device);
    CHECK(decls[0].count == 16);  // 10 + 2 * 3
    CHECK(decls[1].name == "out");
    CHECK(decls[1].role == Role::output);
    CHECK(decls[1].place == Place::device);
    CHECK(decls[1].count == 10);
    // in[] read once, out[] written once.
    CHECK(spec_of("stencil", "shared").work(p).bytes == doctest::Approx(4.0 * 16 + 4.0 * 10));
}

TEST_CASE("stencil: the reference adds up 7 neighbours (hand-computed)")
{
    const TaskSpec& spec = spec_of("stencil", "shared");
    SUBCASE("n = 3, in = 1..9")
    {
        const Params p {{"n", 3}};
        OwnedCallBuffers b(spec.buffers(p));
        fill<int>(b.view(), "in", {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const auto out = reference_all(spec, p, b.view(), "out");
        CHECK(out[0] == 28);  // 1+2+3+4+5+6+7
        CHECK(out[1] == 35);  // 2+...+8
        CHECK(out[2] == 42);  // 3+...+9
    }
    SUBCASE("n = 1: one output, the whole input")
    {
        const Params p {{"n", 1}};
        OwnedCallBuffers b(spec.buffers(p));
        fill<int>(b.view(), "in", {-1000, 5, 0, 7, -3, 1000, 2});
        CHECK(reference_all(spec, p, b.view(), "out")[0] == 11);  // -1000+5+0+7-3+1000+2
    }
    SUBCASE("n = 4, signs mixed")
    {
        const Params p {{"n", 4}};
        OwnedCallBuffers b(spec.buffers(p));
        fill<int>(b.view(), "in", {-1000, 5, 0, 7, -3, 1000, 2, 9, -8, 1000});
        const auto out = reference_all(spec, p, b.view(), "out");
        CHECK(out[0] == 11);    // -1000 5 0 7 -3 1000 2
        CHECK(out[1] == 1020);  // 5 0 7 -3 1000 2 9
        CHECK(out[2] == 1007);  // 0 7 -3 1000 2 9 -8
        CHECK(out[3] == 2007);  // 7 -3 1000 2 9 -8 1000
    }
}

TEST_CASE("stencil: generated inputs are small, not all zero, and the same for a seed")
{
    const TaskSpec& spec = spec_of("stencil", "shared");
    const Params p {{"n", 5000}};
    OwnedCallBuffers b1(spec.buffers(p)), b2(spec.buffers(p));
    spec.generate(p, 42, b1.view());
    spec.generate(p, 42, b2.view());
    const auto in1 = b1.view().get<int>("in");
    const auto in2 = b2.view().get<int>("in");
    CHECK(std::equal(in1.begin(), in1.end(), in2.begin()));
    bool nonzero = false;
    for (int v : in1) {
        CHECK(v >= -1000);
        CHECK(v <= 1000);
        nonzero = nonzero || v != 0;
    }
    CHECK(nonzero);
}

TEST_CASE("stencil: the check passes a right output and names the place of a wrong one")
{
    const TaskSpec& spec = spec_of("stencil", "shared");
    const TaskInfo& task = task_of("stencil", "shared");
    const Params p {{"n", 4}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "in", {-1000, 5, 0, 7, -3, 1000, 2, 9, -8, 1000});
    auto out = b.view().get<int>("out");
    const CheckInput in {.task = task, .params = p, .buffers = b.view()};

    SUBCASE("right")
    {
        fill<int>(b.view(), "out", {11, 1020, 1007, 2007});
        const CheckResult r = spec.check(in);
        CHECK(r.ok());
        CHECK(r.checked == 4);
    }
    SUBCASE("one wrong output: the halo on the right of a partial block missed")
    {
        fill<int>(b.view(), "out", {11, 1020, 1007, 1007});
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::mismatch);
        CHECK(r.wrong == 1);
        CHECK(r.summary.find("out[3]") != std::string::npos);
        CHECK(r.summary.find("in[3..9]") != std::string::npos);
        CHECK(r.summary.find("expected 2007, got 1007") != std::string::npos);
    }
    SUBCASE("the last output never written")
    {
        fill<int>(b.view(), "out", {11, 1020, 1007, 0});
        std::memcpy(&out[3], &wire::kPoison32, 4);
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::unwritten);
        CHECK(r.unwritten == 1);
        CHECK(r.summary.find("out[3] was never written") != std::string::npos);
    }
}

TEST_CASE("stencil: lab.json has the edge sizes and a big size past 2^31 bytes")
{
    const TaskInfo& task = task_of("stencil", "shared");
    CHECK(task.technique == "shared_memory");
    bool one = false, partial = false, big = false;
    for (const auto& s : task.sizes) {
        const std::int64_t n = s.params.at("n");
        one = one || n == 1;
        partial = partial || n % 1024 != 0;
        if (s.big) {
            big = true;
            CHECK(4.0 * (n + 2 * RADIUS) > 2147483648.0);
        }
    }
    CHECK(one);
    CHECK(partial);
    CHECK(big);
}

TEST_CASE("stencil: a timed run's check samples across the whole output, and catches a wrong stretch anywhere")
{
    // The timed size, under the timed runs' reference budget: a sample is compared, drawn in strata.
    const TaskSpec& spec = spec_of("stencil", "shared");
    const TaskInfo& task = task_of("stencil", "shared");
    const Params p = task.timing;
    OwnedCallBuffers b(spec.buffers(p));
    spec.generate(p, 11, b.view());
    auto in = b.view().get<int>("in");
    auto out = b.view().get<int>("out");
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; ++i) {
        int sum = 0;
        for (int k = 0; k <= 2 * RADIUS; ++k) sum += in[i + k];
        out[i] = sum;
    }
    const CheckInput check {.task = task, .params = p, .buffers = b.view(), .reference_budget = 2e7};
    const CheckResult right = spec.check(check);
    CHECK(right.ok());
    CHECK(right.sampled);
    CHECK(right.checked < n);
    // A stretch of 64 wrong outputs, at the start, in the middle, near the end: always caught
    // (every stratum of the sample is narrower than that).
    for (const std::size_t at : {std::size_t(300), n / 2 + 12345, n - 400}) {
        CAPTURE(at);
        std::vector<int> kept(out.begin() + at, out.begin() + at + 64);
        for (std::size_t i = at; i < at + 64; ++i) out[i] += 1;
        const CheckResult wrong = spec.check(check);
        CHECK(wrong.kind == CheckResult::Kind::mismatch);
        CHECK(wrong.wrong > 0);
        std::copy(kept.begin(), kept.end(), out.begin() + at);
    }
}
