// The reduction lab's specs: the CPU reference against hand-computed sums
// (wrap-around included), the buffers of each task, inputs whose sum is
// never 0, and the atomic task's check.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace hpclab;
using namespace hpclab::test;

const char* const kTasks[] = {"naive", "tree", "atomic"};

double reference_sum(const TaskSpec& spec, const Params& p, const CallBuffers& call)
{
    return reference_all(spec, p, call, "sum")[0];
}

void set_raw(CallBuffers& call, const char* name, std::uint32_t bits)
{
    std::memcpy(call.get<int>(name).data(), &bits, 4);
}

}  // namespace

TEST_CASE("reduction: buffers: the array on the device, the sum on the host or the device")
{
    const Params p {{"n", 1000}};
    for (const char* t : kTasks) {
        CAPTURE(t);
        const auto decls = spec_of("reduction", t).buffers(p);
        REQUIRE(decls.size() == 2);
        CHECK(decls[0].name == "a");
        CHECK(decls[0].role == Role::input);
        CHECK(decls[0].place == Place::device);
        CHECK(decls[0].count == 1000);
        CHECK(decls[1].name == "sum");
        CHECK(decls[1].role == Role::output);
        CHECK(decls[1].count == 1);
        CHECK(decls[1].place == (std::string(t) == "atomic" ? Place::device : Place::host));
        CHECK(spec_of("reduction", t).work(p).bytes == doctest::Approx(4000.0));
    }
}

TEST_CASE("reduction: the reference is the sum (hand-computed)")
{
    for (const char* t : kTasks) {
        CAPTURE(t);
        const TaskSpec& spec = spec_of("reduction", t);
        // n = 1
        const Params p1 {{"n", 1}};
        OwnedCallBuffers b1(spec.buffers(p1));
        fill<int>(b1.view(), "a", {-417});
        CHECK(reference_sum(spec, p1, b1.view()) == -417);
        // n = 5, signs mixed: 3 - 7 + 1000 - 1000 + 12
        const Params p5 {{"n", 5}};
        OwnedCallBuffers b5(spec.buffers(p5));
        fill<int>(b5.view(), "a", {3, -7, 1000, -1000, 12});
        CHECK(reference_sum(spec, p5, b5.view()) == 8);
    }
}

TEST_CASE("reduction: a sum past the int range wraps around as on the GPU")
{
    const TaskSpec& spec = spec_of("reduction", "tree");
    SUBCASE("3,000,000 times 1000")
    {
        const Params p {{"n", 3000000}};
        OwnedCallBuffers b(spec.buffers(p));
        auto a = b.view().get<int>("a");
        std::fill(a.begin(), a.end(), 1000);
        // 3,000,000,000 - 2^32
        CHECK(reference_sum(spec, p, b.view()) == -1294967296.0);
    }
    SUBCASE("2,200,000 times -1000")
    {
        const Params p {{"n", 2200000}};
        OwnedCallBuffers b(spec.buffers(p));
        auto a = b.view().get<int>("a");
        std::fill(a.begin(), a.end(), -1000);
        // -2,200,000,000 + 2^32
        CHECK(reference_sum(spec, p, b.view()) == 2094967296.0);
    }
}

TEST_CASE("reduction: generated inputs are small and never sum to 0")
{
    const TaskSpec& spec = spec_of("reduction", "naive");
    // For n = 1 a uniform value is 0 once in 2001 draws: 20000 seeds would
    // hit it about 10 times if generate did not move a zero total.
    for (std::int64_t n : {1, 2, 3}) {
        const Params p {{"n", n}};
        OwnedCallBuffers b(spec.buffers(p));
        int zero_sums = 0, out_of_range = 0;
        for (std::uint64_t seed = 0; seed < 20000; ++seed) {
            spec.generate(p, seed, b.view());
            zero_sums += reference_sum(spec, p, b.view()) == 0;
            for (int v : b.view().get<int>("a")) out_of_range += v < -1000 || v > 1000;
        }
        CAPTURE(n);
        CHECK(zero_sums == 0);
        CHECK(out_of_range == 0);
    }
    // The same inputs for the same seed.
    const Params p {{"n", 4096}};
    OwnedCallBuffers b1(spec.buffers(p)), b2(spec.buffers(p));
    spec.generate(p, 7, b1.view());
    spec.generate(p, 7, b2.view());
    const auto a1 = b1.view().get<int>("a");
    const auto a2 = b2.view().get<int>("a");
    CHECK(std::equal(a1.begin(), a1.end(), a2.begin()));
}

TEST_CASE("reduction: past 4096 elements the inputs are ones a float accumulator adds up wrong")
{
    // The classic mistake: a block's sum kept in a float. Each of 1000003
    // sizes' blocks of 1024, summed in float, then the blocks added in int.
    const TaskSpec& spec = spec_of("reduction", "tree");
    const Params p {{"n", 1000003}};
    OwnedCallBuffers b(spec.buffers(p));
    spec.generate(p, 3, b.view());
    const auto a = b.view().get<int>("a");
    CHECK(std::any_of(a.begin(), a.end(), [](int v) { return v > (1 << 24) || v < -(1 << 24); }));
    std::uint32_t float_blocks = 0;
    for (std::size_t start = 0; start < a.size(); start += 1024) {
        float block = 0;
        for (std::size_t i = start; i < std::min(a.size(), start + 1024); ++i) block += static_cast<float>(a[i]);
        float_blocks += static_cast<std::uint32_t>(static_cast<std::int64_t>(block));
    }
    CHECK(static_cast<double>(static_cast<std::int32_t>(float_blocks)) != reference_sum(spec, p, b.view()));
}

TEST_CASE("reduction: the check of the returned sum (naive, tree)")
{
    for (const char* t : {"naive", "tree"}) {
        CAPTURE(t);
        const TaskSpec& spec = spec_of("reduction", t);
        const Params p {{"n", 5}};
        OwnedCallBuffers b(spec.buffers(p));
        fill<int>(b.view(), "a", {3, -7, 1000, -1000, 12});
        const CheckInput in {.task = task_of("reduction", t), .params = p, .buffers = b.view()};

        fill<int>(b.view(), "sum", {8});
        CHECK(spec.check(in).ok());

        fill<int>(b.view(), "sum", {0});  // what the skeleton returns
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::mismatch);
        CHECK(r.summary.find("the sum of all 5 elements") != std::string::npos);
        CHECK(r.summary.find("expected 8, got 0") != std::string::npos);
    }
}

TEST_CASE("reduction: the check of *d_sum (atomic) recognises a result never set to zero")
{
    const TaskSpec& spec = spec_of("reduction", "atomic");
    const Params p {{"n", 5}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {3, -7, 1000, -1000, 12});
    const CheckInput in {.task = task_of("reduction", "atomic"), .params = p, .buffers = b.view()};
    auto mentions_memset = [](const CheckResult& r) {
        for (const auto& d : r.details)
            if (d.find("cudaMemset") != std::string::npos) return true;
        return false;
    };

    SUBCASE("right")
    {
        fill<int>(b.view(), "sum", {8});
        CHECK(spec.check(in).ok());
    }
    SUBCASE("never written (the skeleton): unwritten")
    {
        set_raw(b.view(), "sum", wire::kPoison32);
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::unwritten);
        CHECK(r.summary.find("sum[0] was never written") != std::string::npos);
    }
    SUBCASE("the garbage plus the sum: no cudaMemset")
    {
        set_raw(b.view(), "sum", wire::kPoison32 + 8u);
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::mismatch);
        CHECK(mentions_memset(r));
    }
    SUBCASE("another wrong sum: no word about cudaMemset")
    {
        fill<int>(b.view(), "sum", {1012});
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::mismatch);
        CHECK(r.summary.find("expected 8, got 1012") != std::string::npos);
        CHECK_FALSE(mentions_memset(r));
    }
}

TEST_CASE("reduction: lab.json: thresholds, edge sizes, a big size past 2^31 bytes")
{
    CHECK(task_of("reduction", "tree").threshold.has_value());
    CHECK(task_of("reduction", "tree").threshold->baseline == "naive");
    CHECK(task_of("reduction", "atomic").threshold->baseline == "reference");
    for (const char* t : kTasks) {
        CAPTURE(t);
        const TaskInfo& task = task_of("reduction", t);
        bool one = false, partial = false, big = false;
        for (const auto& s : task.sizes) {
            const std::int64_t n = s.params.at("n");
            one = one || n == 1;
            partial = partial || (n % 1024 != 0 && (n & (n - 1)) != 0);
            if (s.big) {
                big = true;
                CHECK(4.0 * n > 2147483648.0);
            }
        }
        CHECK(one);
        CHECK(partial);
        CHECK(big);
    }
}
