// reduction's specs: the sum of n ints, three ways. naive and tree return
// the sum (bind.cpp stores it into the host buffer "sum"); atomic leaves it
// in a device int "sum" that it must first set to zero itself.
#include "course/int_sum_spec.h"

namespace {

using namespace hpclab;

class NaiveTask final : public IntSumSpec {
public:
    NaiveTask() : IntSumSpec(Place::host) {}
};

class TreeTask final : public IntSumSpec {
public:
    TreeTask() : IntSumSpec(Place::host) {}
};

class AtomicTask final : public IntSumSpec {
public:
    AtomicTask() : IntSumSpec(Place::device) {}

    // The generic comparison, plus the symptom of the typical mistake: *d_sum
    // never set to zero, so the result is hpclab's garbage plus the sum.
    CheckResult check(const CheckInput& in) const override
    {
        CheckResult r = compare_outputs(*this, in);
        if (r.kind != CheckResult::Kind::mismatch) return r;
        const std::int32_t got = in.buffers.get<int>("sum")[0];
        const std::int32_t want = wrapped(exact_sum(in.buffers.get<int>("a")));
        if (static_cast<std::uint32_t>(got) - static_cast<std::uint32_t>(want) == wire::kPoison32)
            r.details.push_back(
                "that is the garbage *d_sum held before the call plus the right sum: set *d_sum to zero first "
                "(cudaMemset) before the blocks add into it");
        return r;
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("reduction", "naive", NaiveTask);
HPCLAB_REGISTER_TASK("reduction", "tree", TreeTask);
HPCLAB_REGISTER_TASK("reduction", "atomic", AtomicTask);
