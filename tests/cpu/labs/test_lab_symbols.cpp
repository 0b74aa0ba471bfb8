// The symbols lab's specs: partial is the sum of n ints (the reduction
// lab's spec, its partial sums on the host); poly's reference is the
// polynomial, hand-computed, with the scale its tolerance is measured
// against, and a float evaluation by Horner's rule passes it where a
// missing coefficient does not.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace {

using namespace hpclab;
using namespace hpclab::test;

constexpr int kTerms = 64;  // NCOEFF of labs/symbols/symbols.h

// Horner's rule in float, as the solution's kernel computes it.
float horner_float(const std::vector<float>& c, float x, int terms = kTerms)
{
    float r = c[static_cast<std::size_t>(terms - 1)];
    for (int k = terms - 2; k >= 0; --k) r = r * x + c[static_cast<std::size_t>(k)];
    return r;
}

}  // namespace

TEST_CASE("symbols: buffers: the sum's array on the device, the coefficients on the host, the points on the device")
{
    const Params p {{"n", 1000}};
    const auto partial = spec_of("symbols", "partial").buffers(p);
    REQUIRE(partial.size() == 2);
    CHECK(partial[0].place == Place::device);
    CHECK(partial[1].name == "sum");
    CHECK(partial[1].place == Place::host);
    const auto poly = spec_of("symbols", "poly").buffers(p);
    REQUIRE(poly.size() == 3);
    CHECK(poly[0].name == "coeff");
    CHECK(poly[0].place == Place::host);
    CHECK(poly[0].role == Role::input);
    CHECK(poly[0].count == kTerms);
    CHECK(poly[1].name == "x");
    CHECK(poly[1].place == Place::device);
    CHECK(poly[1].count == 1000);
    CHECK(poly[2].name == "y");
    CHECK(poly[2].role == Role::output);
    CHECK(poly[2].place == Place::device);
    CHECK(spec_of("symbols", "poly").work(p).bytes == doctest::Approx(8000.0));
}

TEST_CASE("symbols: partial's reference is the sum, wrapping as on the GPU")
{
    const TaskSpec& spec = spec_of("symbols", "partial");
    const Params p {{"n", 5}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<int>(b.view(), "a", {3, -7, 1000, -1000, 12});
    CHECK(reference_all(spec, p, b.view(), "sum")[0] == 8);
    const Params big {{"n", 3000000}};
    OwnedCallBuffers w(spec.buffers(big));
    auto a = w.view().get<int>("a");
    std::fill(a.begin(), a.end(), 1000);
    CHECK(reference_all(spec, big, w.view(), "sum")[0] == 3000000000.0 - 4294967296.0);
}

TEST_CASE("symbols: poly's reference, hand-computed, and its scale")
{
    const TaskSpec& spec = spec_of("symbols", "poly");
    const Params p {{"n", 3}};
    OwnedCallBuffers b(spec.buffers(p));
    // p(x) = 1 - 2x + 0.5x^2 + x^63
    std::vector<float> c(kTerms, 0.0f);
    c[0] = 1;
    c[1] = -2;
    c[2] = 0.5f;
    c[kTerms - 1] = 1;
    fill<float>(b.view(), "coeff", c);
    fill<float>(b.view(), "x", {0.0f, 1.0f, -0.5f});
    std::vector<double> scale;
    const auto y = reference_all(spec, p, b.view(), "y", &scale);
    CHECK(y[0] == 1.0);
    CHECK(y[1] == doctest::Approx(0.5));
    CHECK(y[2] == doctest::Approx(1 + 1 + 0.125 - std::pow(0.5, 63)));
    CHECK(scale[0] == 1.0);
    CHECK(scale[1] == doctest::Approx(4.5));  // 1 + 2 + 0.5 + 1
    CHECK(scale[2] == doctest::Approx(1 + 1 + 0.125 + std::pow(0.5, 63)));
}

TEST_CASE("symbols: Horner in float passes poly's tolerance, a quarter of the coefficients does not")
{
    const TaskSpec& spec = spec_of("symbols", "poly");
    const TaskInfo& task = task_of("symbols", "poly");
    const Params p {{"n", 10000}};
    OwnedCallBuffers b(spec.buffers(p));
    spec.generate(p, 2024, b.view());
    const auto c_span = b.view().get<float>("coeff");
    const std::vector<float> c(c_span.begin(), c_span.end());
    const auto x = b.view().get<float>("x");
    std::vector<double> scale;
    const auto expected = reference_all(spec, p, b.view(), "y", &scale);
    double worst_right = 0, worst_truncated = 0;
    std::vector<float> truncated = c;
    std::fill(truncated.begin() + kTerms / 4, truncated.end(), 0.0f);  // NCOEFF bytes copied, not floats
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst_right = std::max(worst_right, std::fabs(horner_float(c, x[i]) - expected[i]) / scale[i]);
        worst_truncated = std::max(worst_truncated, std::fabs(horner_float(truncated, x[i]) - expected[i]) / scale[i]);
    }
    CHECK(worst_right < task.tolerance.rtol / 10);
    CHECK(worst_truncated > task.tolerance.rtol * 10);
}
