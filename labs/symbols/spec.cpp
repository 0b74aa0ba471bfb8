// symbols' specs. partial: the sum of n ints (the reduction lab's spec; the
// lesson is where the partial sums live, which the trace checks). poly: a
// polynomial of NCOEFF float coefficients, given on the host, evaluated at
// n points on the device.
#include "course/int_sum_spec.h"
#include "symbols.h"

#include <cmath>

namespace {

using namespace hpclab;

class PartialTask final : public IntSumSpec {
public:
    PartialTask() : IntSumSpec(Place::host) {}
};

class PolyTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        return {{"coeff", ElemType::f32, Place::host, Role::input, NCOEFF},
                {"x", ElemType::f32, Place::device, Role::input, n},
                {"y", ElemType::f32, Place::device, Role::output, n}};
    }
    // Points in [-1, 1], where every term counts and none overflows; the
    // coefficients of both signs, so that the terms partly cancel.
    std::vector<InputFill> input_fills(const Params&) const override
    {
        return {{"coeff", 1, -1, 1}, {"x", 2, -1, 1}};
    }
    // Horner's rule in float64. The scale of the tolerance is the sum of
    // |coeff[k] x^k|: Horner's rounding error in float is bounded by a few
    // NCOEFF float epsilons of it, whatever the cancellation.
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double> scale) const override
    {
        const auto c = in.get<float>("coeff");
        const auto x = in.get<float>("x");
        for (std::size_t t = 0; t < idx.size(); ++t) {
            const double xi = x[idx[t]];
            double value = 0, magnitude = 0;
            for (int k = NCOEFF - 1; k >= 0; --k) {
                value = value * xi + c[k];
                magnitude = magnitude * std::fabs(xi) + std::fabs(c[k]);
            }
            expected[t] = value;
            scale[t] = magnitude;
        }
    }
    double reference_cost(const Params&) const override { return NCOEFF; }
    // y[i] from x[i] and every coefficient.
    bool reads_known(const Params&) const override { return true; }
    ElementRange reads(const Params&, const BufferDecl& input, std::uint64_t, std::uint64_t i) const override
    {
        if (input.name == "coeff") return {0, input.count};
        return {i, i + 1};
    }
    std::string locate(const Params&, std::string_view, std::uint64_t index) const override
    {
        return fmt::format("y[{}], the polynomial at x[{}]", index, index);
    }
    // x read and y written once; NCOEFF - 1 multiply-adds a point.
    Work work(const Params& p) const override
    {
        const double n = static_cast<double>(p.at("n"));
        return {8.0 * n, 2.0 * (NCOEFF - 1) * n};
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("symbols", "partial", PartialTask);
HPCLAB_REGISTER_TASK("symbols", "poly", PolyTask);
