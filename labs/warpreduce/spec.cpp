// warpreduce's specs: the sum of n ints (course/int_sum_spec.h's IntSumSpec, as
// reduction's atomic task: a device int, garbage until the function sets it)
// and their maximum, in a device int "max".
#include "course/int_sum_spec.h"

#include <algorithm>
#include <climits>
#include <mutex>

namespace {

using namespace hpclab;

// The largest element, in parallel: a timed call's 2^25 ints, made again
// for each of its six calls, took 0.41..0.47 s to judge with one thread on
// an H200 (std::max_element, 50 ms a call on one CPU).
int largest_of(std::span<const int> a)
{
    int largest = INT_MIN;
    std::mutex m;
    parallel_for(a.size(), [&](std::uint64_t b, std::uint64_t e) {
        const int mine = *std::max_element(a.begin() + b, a.begin() + e);
        std::lock_guard lock(m);
        largest = std::max(largest, mine);
    });
    return largest;
}

class SumTask final : public IntSumSpec {
public:
    SumTask() : IntSumSpec(Place::device) {}
};

class MaxTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"a", ElemType::i32, Place::device, Role::input, param_u64(p, "n")},
                {"max", ElemType::i32, Place::device, Role::output, 1}};
    }
    // Every value negative: a maximum started at 0 (a cudaMemset), or threads
    // past n that offer 0 instead of INT_MIN, give 0, which is never right.
    // Small for small arrays (values a student can read), down to -2^30 past
    // them (int_fill_bound).
    std::vector<InputFill> input_fills(const Params& p) const override
    {
        const double bound = static_cast<double>(int_fill_bound(param_u64(p, "n")));
        return {{"a", 1, -bound, -1}};
    }
    // In half the calls (by the seed) the maximum is moved to the last
    // element, where a loop that stops one step early, or a grid-stride loop
    // without its tail, never looks; in the other half it stays where it fell,
    // so that reading a[n - 1] alone does not pass. (Timed calls, made from
    // the fills alone on the GPU, keep it where it falls.)
    void generate(const Params& p, std::uint64_t seed, CallBuffers& call) const override
    {
        TaskSpec::generate(p, seed, call);
        const auto a = call.get<int>("a");
        if (max_goes_last(seed)) std::iter_swap(std::max_element(a.begin(), a.end()), a.end() - 1);
    }
    // A stream of its own (the fill is stream 1): one bit of the seed's.
    static bool max_goes_last(std::uint64_t seed) { return (RandomStream(seed, 2).bits(0) & 1) != 0; }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const double largest = largest_of(in.get<int>("a"));
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = largest;
    }
    double reference_cost(const Params&) const override { return 1; }
    std::string locate(const Params& p, std::string_view, std::uint64_t) const override
    {
        return fmt::format("the largest of all {} elements", p.at("n"));
    }
    Work work(const Params& p) const override { return {4.0 * static_cast<double>(p.at("n")), 0}; }

    // The generic comparison, plus the symptoms of the typical mistakes: the
    // result started at 0 (every value is negative), or never set at all
    // (atomicMax keeps hpclab's garbage, larger than every value).
    CheckResult check(const CheckInput& in) const override
    {
        CheckResult r = compare_outputs(*this, in);
        const std::int32_t got = in.buffers.get<int>("max")[0];
        if (r.kind == CheckResult::Kind::mismatch && got == 0)
            r.details.push_back("every value is negative, so 0 is never the maximum: start *d_max at INT_MIN (a "
                                "cudaMemset can only write bytes), and let threads past n offer INT_MIN, not 0");
        if (r.kind == CheckResult::Kind::unwritten)
            r.details.push_back("*d_max still holds the garbage hpclab left in it, larger than every value: atomicMax "
                                "never replaces it. Set *d_max to INT_MIN before the blocks compare into it");
        return r;
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("warpreduce", "sum", SumTask);
HPCLAB_REGISTER_TASK("warpreduce", "max", MaxTask);
