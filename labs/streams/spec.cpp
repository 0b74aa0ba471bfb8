// streams' specs: y = 2x + 1 on host vectors of n ints, computed on the GPU.
// Both tasks compute the same; they differ in how the copies run (pinned:
// one after the other from pinned memory; overlap: in chunks on streams),
// which the trace and the timing judge, not the outputs.
#include "course/spec_kit.h"

#include <fmt/format.h>

namespace {

using namespace hpclab;

// |x| <= 2^29: 2x + 1 fits an int, and is odd, so never the poison's
// neighbourhood: the poison (2142950317) is past 2^30 + 1.
constexpr double kBound = 536870912.0;

class ScaleSpec : public TaskSpec {
public:
    bool reads_known(const Params&) const override { return true; }  // y[i] from x[i]
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        return {{"x", ElemType::i32, Place::host, Role::input, n}, {"y", ElemType::i32, Place::host, Role::output, n}};
    }
    std::vector<InputFill> input_fills(const Params&) const override { return {{"x", 1, -kBound, kBound}}; }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto x = in.get<int>("x");
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = 2.0 * static_cast<double>(x[idx[k]]) + 1.0;
    }
    // Each element read once and written once, in device memory: the copies
    // over the bus carry the same 8 bytes, and they are what takes the time.
    Work work(const Params& p) const override { return {8.0 * static_cast<double>(p.at("n")), 0}; }
};

class PinnedTask final : public ScaleSpec {
public:
    std::string locate(const Params&, std::string_view, std::uint64_t index) const override
    {
        return fmt::format("element {}", index);
    }
};

// Where a wrong element lies among the chunks: the usual mistake leaves the
// remainder of n / 8 out, and a student finds it by the chunk.
class OverlapTask final : public ScaleSpec {
public:
    std::string locate(const Params& p, std::string_view, std::uint64_t index) const override
    {
        constexpr std::uint64_t kChunks = 8;  // the skeleton's NSTREAMS
        const std::uint64_t n = param_u64(p, "n");
        const std::uint64_t chunk = (n + kChunks - 1) / kChunks;
        return fmt::format("element {}, in chunk {} of {} (chunks of {}) with NSTREAMS 8", index, index / chunk,
                           kChunks, chunk);
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("streams", "pinned", PinnedTask);
HPCLAB_REGISTER_TASK("streams", "overlap", OverlapTask);
