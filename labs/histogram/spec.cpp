// histogram's specs: the counts of n ints in [0, bins), with a share `hot`
// (percent) of them one value, the middle bin; the counts in a device array
// "hist" of bins ints that hpclab fills with garbage, as reduction's atomic
// result. The two tasks compute the same thing and differ in how (lab.json:
// global atomics, a private histogram per block), which the launches and the
// machine code say.
#include "course/spec_kit.h"
#include "util/parallel.h"
#include "wire/exchange.h"

#include <fmt/format.h>

#include <cmath>
#include <mutex>

namespace {

using namespace hpclab;

// How many values past the top of [0, bins) the fill draws, each folded onto
// the middle bin (wire::stream_folded): about `hot` percent of the elements
// then hold it, (fold + 1) / (bins + fold) of them exactly.
std::uint32_t fold_for(std::int64_t bins, std::int64_t hot)
{
    return static_cast<std::uint32_t>(std::llround(double(bins) * double(hot) / double(100 - hot)));
}

// The count of every value, in parallel: 2^24 elements judged once per timed call.
std::vector<std::int64_t> counts_of(std::span<const int> a, std::int64_t bins)
{
    std::vector<std::int64_t> total(static_cast<std::size_t>(bins), 0);
    std::mutex m;
    parallel_for(a.size(), [&](std::uint64_t b, std::uint64_t e) {
        std::vector<std::int64_t> mine(total.size(), 0);
        for (std::uint64_t i = b; i < e; ++i)
            if (a[i] >= 0 && a[i] < bins) ++mine[static_cast<std::size_t>(a[i])];
        std::lock_guard lock(m);
        for (std::size_t k = 0; k < mine.size(); ++k) total[k] += mine[k];
    });
    return total;
}

class HistogramTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"a", ElemType::i32, Place::device, Role::input, param_u64(p, "n")},
                {"hist", ElemType::i32, Place::device, Role::output, param_u64(p, "bins")}};
    }
    std::vector<InputFill> input_fills(const Params& p) const override
    {
        const std::int64_t bins = p.at("bins");
        InputFill f {"a", 1, 0, double(bins - 1)};
        f.fold = fold_for(bins, p.at("hot"));
        return {f};
    }
    void reference(const Params& p, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const std::vector<std::int64_t> counts = counts_of(in.get<int>("a"), p.at("bins"));
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = double(counts[idx[k]]);
    }
    // Every bin's count reads all n elements, but one pass counts them all:
    // n / bins a bin, so that past kCostlyReference the whole sample is
    // counted in one pass.
    double reference_cost(const Params& p) const override
    {
        return std::max(1.0, double(p.at("n")) / double(p.at("bins")));
    }
    std::string locate(const Params& p, std::string_view, std::uint64_t i) const override
    {
        const std::int64_t hot_bin = (p.at("bins") - 1) / 2;
        return fmt::format("bin {} (how many elements are {}{})", i, i,
                           p.at("hot") > 0 && std::int64_t(i) == hot_bin ? ", the hot value" : "");
    }
    Work work(const Params& p) const override
    {
        return {4.0 * double(p.at("n")) + 4.0 * double(p.at("bins")), 0};
    }
    // The generic comparison, and what the counts' total says of the
    // mistake: every bin off by the garbage (d_hist never zeroed), fewer
    // counts than elements (updates lost: a plain ++), or more.
    CheckResult check(const CheckInput& in) const override
    {
        CheckResult r = compare_outputs(*this, in);
        if (r.kind == CheckResult::Kind::unwritten) {
            r.details.push_back("a bin that no element falls in was left as it was: d_hist held garbage before the "
                                "call, so set every bin to zero first (cudaMemset(d_hist, 0, bins * sizeof(int)): the "
                                "size is in bytes)");
            return r;
        }
        if (r.kind != CheckResult::Kind::mismatch) return r;
        const auto got = in.buffers.get<int>("hist");
        const std::vector<std::int64_t> want = counts_of(in.buffers.get<int>("a"), in.params.at("bins"));
        std::size_t garbage = 0, first_garbage = got.size();
        std::int64_t total = 0;
        for (std::size_t k = 0; k < got.size(); ++k) {
            total += got[k];
            if (static_cast<std::uint32_t>(got[k]) - static_cast<std::uint32_t>(want[k]) != wire::kPoison32) continue;
            ++garbage;
            first_garbage = std::min(first_garbage, k);
        }
        const std::int64_t n = in.params.at("n");
        if (garbage == got.size())
            r.details.push_back("every bin is the garbage d_hist held before the call plus the right count: set the "
                                "bins to zero first (cudaMemset(d_hist, 0, bins * sizeof(int))) before the threads "
                                "count into them");
        else if (garbage > 0)
            r.details.push_back(fmt::format(
                "{} of the {} bins, from bin {} on, hold the garbage d_hist held before the call plus the right count: "
                "only part of d_hist was set to zero (cudaMemset's size is in bytes: bins * sizeof(int))",
                garbage, got.size(), first_garbage));
        else if (total < n)
            r.details.push_back(fmt::format(
                "the counts add up to {}, the elements are {}: {} updates were lost, as a plain ++ (or +=) on a count "
                "loses them when two threads update it at once; atomicAdd() does not",
                total, n, n - total));
        else if (total > n)
            r.details.push_back(fmt::format("the counts add up to {}, more than the {} elements: some element was "
                                            "counted twice (a block's private counts added in more than once?)",
                                            total, n));
        return r;
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("histogram", "global", HistogramTask);
HPCLAB_REGISTER_TASK("histogram", "shared", HistogramTask);
