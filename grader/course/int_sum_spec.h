// The sum of n ints, as the reduction, symbols and warpreduce labs ask for it: the
// array on the device, the sum in one int (on the host when the entry point
// returns it, on the device when a kernel leaves it there), wrapping around
// as int additions on the GPU do in any order.
#pragma once

#include "course/spec_kit.h"
#include "util/parallel.h"
#include "wire/exchange.h"

#include <fmt/format.h>

#include <mutex>

namespace hpclab {

// The exact sum, as a 64-bit integer.
inline std::int64_t exact_sum(std::span<const int> a)
{
    std::int64_t total = 0;
    std::mutex m;
    parallel_for(a.size(), [&](std::uint64_t b, std::uint64_t e) {
        std::int64_t s = 0;
        for (std::uint64_t i = b; i < e; ++i) s += a[i];
        std::lock_guard lock(m);
        total += s;
    });
    return total;
}

// What int arithmetic gives on the GPU, in any order: the exact sum modulo
// 2^32, as a two's complement int.
inline std::int32_t wrapped(std::int64_t sum)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
}

// How large the ints the integer labs read are (reduction, symbols,
// warpreduce, scan): up to 1000 in size for arrays of up to 4096 elements
// (sums a student can check by hand), up to 2^30 past them, so that sums wrap
// around and a float accumulator (exact up to 2^24 only) gets them wrong.
inline std::int64_t int_fill_bound(std::uint64_t n)
{
    constexpr std::uint64_t kSmallInputsUpTo = 4096;
    return n <= kSmallInputsUpTo ? 1000 : std::int64_t {1} << 30;
}

class IntSumSpec : public TaskSpec {
public:
    explicit IntSumSpec(Place result_place) : result_place_(result_place) {}

    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"a", ElemType::i32, Place::device, Role::input, param_u64(p, "n")},
                {"sum", ElemType::i32, result_place_, Role::output, 1}};
    }
    // Values of both signs (int_fill_bound: the block sums wrap around).
    std::vector<InputFill> input_fills(const Params& p) const override
    {
        const double bound = static_cast<double>(int_fill_bound(param_u64(p, "n")));
        return {{"a", 1, -bound, bound}};
    }
    // The sum is never 0, so that a function that returns 0 without doing
    // anything never passes (for n = 1, a uniform value would be 0 once in
    // 2001 runs): a zero total is moved by one. (Timed calls, made from the
    // fills alone on the GPU, are of 2^24 elements: a zero sum there is a
    // chance of about one in ten thousand million a call.)
    void generate(const Params& p, std::uint64_t seed, CallBuffers& call) const override
    {
        TaskSpec::generate(p, seed, call);
        const auto a = call.get<int>("a");
        const std::int64_t bound = int_fill_bound(param_u64(p, "n"));
        if (wrapped(exact_sum(a)) == 0) a[0] += a[0] < bound ? 1 : -1;
    }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const double total = wrapped(exact_sum(in.get<int>("a")));
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = total;
    }
    // One output costs n additions, but there is only one: comparing a
    // "sample" of it would save nothing, so never sample.
    double reference_cost(const Params&) const override { return 1; }
    std::string locate(const Params& p, std::string_view, std::uint64_t) const override
    {
        return fmt::format("the sum of all {} elements", p.at("n"));
    }
    Work work(const Params& p) const override { return {4.0 * static_cast<double>(p.at("n")), 0}; }

    // The generic comparison, plus, for a sum on the device, the symptom of
    // the typical mistake: the result never set to zero, so it is hpclab's
    // garbage plus the sum.
    CheckResult check(const CheckInput& in) const override
    {
        CheckResult r = compare_outputs(*this, in);
        if (r.kind != CheckResult::Kind::mismatch || result_place_ != Place::device) return r;
        const std::int32_t got = in.buffers.get<int>("sum")[0];
        const std::int32_t want = wrapped(exact_sum(in.buffers.get<int>("a")));
        if (static_cast<std::uint32_t>(got) - static_cast<std::uint32_t>(want) == wire::kPoison32)
            r.details.push_back(
                "that is the garbage *d_sum held before the call plus the right sum: set *d_sum to zero first "
                "(cudaMemset) before the blocks add into it");
        return r;
    }

private:
    Place result_place_;
};

}  // namespace hpclab
