// Every lab's input generator at every (non-big) size: the buffers match the
// parameters, the inputs depend on the seed and only on it, and are never
// all zeros (zeros hide unwritten outputs and wrong indexing).
#include "course/random.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <limits>

#include <algorithm>
#include <cstring>

using namespace hpclab;
using hpclab::test::catalog;

namespace {

bool same_inputs(const CallBuffers& a, const CallBuffers& b)
{
    for (std::size_t i = 0; i < a.entries().size(); ++i) {
        const auto& x = a.entries()[i];
        if (x.decl.role != Role::input) continue;
        const auto& y = b.entries()[i];
        if (x.bytes.size() != y.bytes.size() || std::memcmp(x.bytes.data(), y.bytes.data(), x.bytes.size()) != 0)
            return false;
    }
    return true;
}

}  // namespace

// The largest sizes whose inputs the generators' test makes (all buffers).
constexpr std::uint64_t kLargestMade = std::uint64_t {32} << 20;

TEST_CASE("generators: inputs follow the seed, and are not all zeros")
{
    for (const auto& lab : catalog().labs())
        for (const auto& task : lab.tasks) {
            if (lab.kind == LabKind::program) continue;  // no spec: the student's program makes its own input
            const TaskSpec* spec = find_task_spec(lab.id, task.id);
            REQUIRE(spec);
            int sizes_made = 0;
            for (const auto& size : task.sizes) {
                if (size.big) continue;  // same code, too large for a unit test
                CAPTURE(lab.id);
                CAPTURE(task.id);
                CAPTURE(format_params(size.params));
                const auto decls = spec->buffers(size.params);
                for (const auto& d : decls) CHECK(d.count > 0);
                // The timed sizes (2^24 elements and more) run the code of the
                // smaller ones on more elements: made three times each, they
                // were most of this test's time (a minute of CI's 2 cores).
                std::uint64_t bytes = 0;
                for (const auto& d : decls) bytes += d.bytes();
                if (bytes > kLargestMade) continue;
                ++sizes_made;
                OwnedCallBuffers a(decls), b(decls), c(decls);
                spec->generate(size.params, 1, a.view());
                spec->generate(size.params, 1, b.view());
                spec->generate(size.params, 2, c.view());
                CHECK(same_inputs(a.view(), b.view()));
                std::uint64_t input_bytes = 0;
                for (const auto& e : a.view().entries()) {
                    if (e.decl.role != Role::input) continue;
                    input_bytes += e.bytes.size();
                    const bool all_zero =
                        std::all_of(e.bytes.begin(), e.bytes.end(), [](std::byte x) { return x == std::byte {0}; });
                    // One small int may legitimately be 0; a buffer of several may not.
                    if (e.decl.count > 4) CHECK_FALSE(all_zero);
                }
                if (input_bytes >= 8) CHECK_FALSE(same_inputs(a.view(), c.view()));
            }
            CHECK_MESSAGE(sizes_made > 0, lab.id << "." << task.id << ": no size under " << kLargestMade << " bytes");
        }
}

TEST_CASE("random: streams are deterministic, independent and in range")
{
    const RandomStream s1(42, 1), s1b(42, 1), s2(42, 2), t1(43, 1);
    int differ_stream = 0, differ_seed = 0;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        CHECK(s1.bits(i) == s1b.bits(i));
        differ_stream += s1.bits(i) != s2.bits(i);
        differ_seed += s1.bits(i) != t1.bits(i);
        const auto v = s1.integer(i, -5, 5);
        CHECK(v >= -5);
        CHECK(v <= 5);
        const double r = s1.real(i, 0.0, 255.0);
        CHECK(r >= 0.0);
        CHECK(r < 255.0);
    }
    CHECK(differ_stream == 1000);
    CHECK(differ_seed == 1000);
    // Every value of a small range shows up.
    std::vector<int> seen(11);
    for (std::uint64_t i = 0; i < 1000; ++i) ++seen[s1.integer(i, -5, 5) + 5];
    CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c > 40; }));
}

TEST_CASE("random: an integer by the reciprocal is the one the remainder gives, at every range's edges")
{
    // The parent's fills and the harness's fill_i32 on the GPU take the
    // reciprocal form (wire::IntRange); the definition is bits % range.
    const RandomStream rs(11, 5);
    const std::int64_t max = std::numeric_limits<std::int64_t>::max(), min = std::numeric_limits<std::int64_t>::min();
    const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
        {0, 0}, {-5, 5}, {-1000, 1000}, {-(std::int64_t {1} << 30), std::int64_t {1} << 30}, {0, 2},
        {0, (std::int64_t {1} << 32) - 2}, {min / 2, max / 2}, {0, max}, {-1, max - 1}};
    for (const auto& [lo, hi] : ranges) {
        const wire::IntRange r = wire::int_range(lo, hi);
        const auto range = static_cast<std::uint64_t>(hi - lo) + 1;
        for (std::uint64_t i = 0; i < 20000; ++i) {
            const std::uint64_t bits = rs.bits(i);
            const std::int64_t want = lo + static_cast<std::int64_t>(range == 0 ? bits : bits % range);
            REQUIRE(rs.integer(i, r) == want);
        }
    }
    // Dividends near 2^64, where the reciprocal's quotient is furthest below.
    for (std::uint64_t range : {3ull, 7ull, (1ull << 31) + 1, (1ull << 63) + 1, ~0ull}) {
        const std::uint64_t m = ~0ull / range;
        for (std::uint64_t bits : {~0ull, ~0ull - 1, ~0ull - range, range * (~0ull / range), range * (~0ull / range) - 1}) {
            std::uint64_t rest = bits - wire::high_product(bits, m) * range;
            while (rest >= range) rest -= range;
            CHECK(rest == bits % range);
        }
    }
}

TEST_CASE("random: a parallel fill equals the serial definition")
{
    std::vector<int> big(3'000'001);
    const RandomStream rs(7, 3);
    fill_uniform(std::span<int>(big), rs, -1000, 1000);
    for (std::uint64_t i : {0ull, 1ull, 1234567ull, 3000000ull}) CHECK(big[i] == rs.integer(i, -1000, 1000));
}

TEST_CASE("random: a folded fill puts its share on the middle value and leaves the rest uniform")
{
    // A histogram's skew (wire::stream_folded): 0..255 drawn with 2304 more
    // values, each folded onto 127: (2304 + 1) / 2560 = 90% of the elements.
    std::vector<int> a(1'000'000);
    const RandomStream rs(3, 1);
    fill_uniform(std::span<int>(a), rs, 0, 255, 2304);
    std::vector<int> count(256, 0);
    for (int v : a) {
        REQUIRE(v >= 0);
        REQUIRE(v <= 255);
        ++count[static_cast<std::size_t>(v)];
    }
    CHECK(count[127] == doctest::Approx(0.9 * 1e6).epsilon(0.01));
    for (int v : {0, 1, 126, 128, 255}) CHECK(count[static_cast<std::size_t>(v)] == doctest::Approx(1e6 / 2560).epsilon(0.2));
    // fold 0 is the plain uniform fill, value for value.
    std::vector<int> plain(1000), folded(1000);
    fill_uniform(std::span<int>(plain), rs, -5, 5);
    fill_uniform(std::span<int>(folded), rs, -5, 5, 0);
    CHECK(plain == folded);
    for (std::uint64_t i = 0; i < 1000; ++i) CHECK(plain[i] == rs.integer(i, -5, 5));
}
