// scan's specs: the inclusive prefix sums of n ints into a device array "b"
// of n ints, wrapping around as int additions do: of each segment of
// SEGMENT (1024) elements on its own (blocks), or of the whole array (scan).
#include "course/int_sum_spec.h"

#include <fmt/format.h>

namespace {

using namespace hpclab;

constexpr std::uint64_t kSegment = 1024;  // labs/scan/scan.h's SEGMENT

class ScanTask : public TaskSpec {
public:
    explicit ScanTask(std::uint64_t segment) : segment_(segment) {}

    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"a", ElemType::i32, Place::device, Role::input, param_u64(p, "n")},
                {"b", ElemType::i32, Place::device, Role::output, param_u64(p, "n")}};
    }
    // Values of both signs (int_fill_bound: the running sums wrap around).
    std::vector<InputFill> input_fills(const Params& p) const override
    {
        const double bound = static_cast<double>(int_fill_bound(param_u64(p, "n")));
        return {{"a", 1, -bound, bound}};
    }
    // One pass over the input up to the last index asked (sorted, each
    // once), the running sum restarted at each segment.
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto a = in.get<int>("a");
        std::int64_t sum = 0;
        std::size_t k = 0;
        for (std::uint64_t i = 0; i < a.size() && k < idx.size(); ++i) {
            if (segment_ && i % segment_ == 0) sum = 0;
            sum += a[i];
            for (; k < idx.size() && idx[k] == i; ++k) expected[k] = wrapped(sum);
        }
    }
    // Element i costs i additions alone; one pass gives them all: past
    // kCostlyReference the whole sample comes at once.
    double reference_cost(const Params&) const override { return 2 * kCostlyReference; }
    std::string locate(const Params&, std::string_view, std::uint64_t i) const override
    {
        if (!segment_) return fmt::format("the sum of a[0] .. a[{}]", i);
        const std::uint64_t s = i - i % segment_;
        return fmt::format("the sum of a[{}] .. a[{}], segment {}", s, i, i / segment_);
    }
    Work work(const Params& p) const override { return {8.0 * static_cast<double>(p.at("n")), 0}; }

private:
    std::uint64_t segment_;  // 0: the whole array
};

class SegmentsTask final : public ScanTask {
public:
    SegmentsTask() : ScanTask(kSegment) {}
};

class WholeTask final : public ScanTask {
public:
    WholeTask() : ScanTask(0) {}
};

}  // namespace

HPCLAB_REGISTER_TASK("scan", "blocks", SegmentsTask);
HPCLAB_REGISTER_TASK("scan", "scan", WholeTask);
