// vecadd0's spec: *c = *a + *b for two ints in host memory, added on the GPU.
#include "course/spec_kit.h"

namespace {

using namespace hpclab;

// The inputs' range: any int in [-2^30, 2^30 - 1], so the sum is in
// [-2^31, 2^31 - 2] and always fits an int.
constexpr std::int64_t kLow = -(std::int64_t {1} << 30);
constexpr std::int64_t kHigh = (std::int64_t {1} << 30) - 1;

class AddTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params&) const override
    {
        return {{"a", ElemType::i32, Place::host, Role::input, 1},
                {"b", ElemType::i32, Place::host, Role::input, 1},
                {"c", ElemType::i32, Place::host, Role::output, 1}};
    }
    std::vector<InputFill> input_fills(const Params&) const override
    {
        return {{"a", 1, static_cast<double>(kLow), static_cast<double>(kHigh)},
                {"b", 2, static_cast<double>(kLow), static_cast<double>(kHigh)}};
    }
    void generate(const Params& p, std::uint64_t seed, CallBuffers& call) const override
    {
        TaskSpec::generate(p, seed, call);
        int& a = call.get<int>("a")[0];
        int& b = call.get<int>("b")[0];
        if (a == 0 && b == 0) a = 1;  // never all zeros
        // A sum equal to the poison would read as "never written": move off it
        // (that sum is near 2^31, so b is near 2^30 and b - 1 stays in range).
        if (static_cast<std::int64_t>(a) + b == static_cast<std::int32_t>(wire::kPoison32)) --b;
    }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const double sum = static_cast<double>(in.get<int>("a")[0]) + static_cast<double>(in.get<int>("b")[0]);
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = sum;
    }
    std::string locate(const Params&, std::string_view, std::uint64_t) const override { return "the sum *c"; }
    // 12 bytes and one addition: no throughput worth showing (the time is
    // the allocations and copies), so none is declared.
    Work work(const Params&) const override { return {}; }
};

}  // namespace

HPCLAB_REGISTER_TASK("vecadd0", "add", AddTask);
