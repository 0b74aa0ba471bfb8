// stencil's spec: out[i] = in[i] + ... + in[i + 2*RADIUS] on device arrays,
// where in[] holds n + 2*RADIUS ints (the halo included) and out[] n ints.
#include "course/spec_kit.h"
#include "stencil.h"  // RADIUS: the same value as the student's code

#include <fmt/format.h>

namespace {

constexpr std::uint64_t kRadius = RADIUS;

class SharedTask final : public hpclab::TaskSpec {
public:
    std::vector<hpclab::BufferDecl> buffers(const hpclab::Params& p) const override
    {
        const std::uint64_t n = hpclab::param_u64(p, "n");
        return {{"in", hpclab::ElemType::i32, hpclab::Place::device, hpclab::Role::input, n + 2 * kRadius},
                {"out", hpclab::ElemType::i32, hpclab::Place::device, hpclab::Role::output, n}};
    }
    // Small values of both signs: a sum of 2*RADIUS+1 of them fits an int
    // easily, and is never the poison value.
    std::vector<hpclab::InputFill> input_fills(const hpclab::Params&) const override { return {{"in", 1, -1000, 1000}}; }
    void reference(const hpclab::Params&, const hpclab::CallBuffers& in, std::string_view,
                   std::span<const std::uint64_t> idx, std::span<double> expected, std::span<double>) const override
    {
        const auto a = in.get<int>("in");
        for (std::size_t k = 0; k < idx.size(); ++k) {
            std::int64_t sum = 0;
            for (std::uint64_t j = idx[k]; j <= idx[k] + 2 * kRadius; ++j) sum += a[j];
            expected[k] = static_cast<double>(sum);
        }
    }
    double reference_cost(const hpclab::Params&) const override { return 2 * kRadius + 1; }
    bool reads_known(const hpclab::Params&) const override { return true; }
    hpclab::ElementRange reads(const hpclab::Params&, const hpclab::BufferDecl&, std::uint64_t,
                               std::uint64_t i) const override
    {
        return {i, i + 2 * kRadius + 1};  // out[i] from in[i .. i + 2*RADIUS]
    }
    std::string locate(const hpclab::Params&, std::string_view, std::uint64_t i) const override
    {
        return fmt::format("the sum of in[{}..{}], centred on in[{}]", i, i + 2 * kRadius, i + kRadius);
    }
    hpclab::Work work(const hpclab::Params& p) const override
    {
        // in[] read once, out[] written once: what a cache in shared memory
        // (or the L1 cache) achieves at best.
        const double n = static_cast<double>(p.at("n"));
        return {4.0 * (n + 2.0 * kRadius) + 4.0 * n, 0};
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("stencil", "shared", SharedTask);
