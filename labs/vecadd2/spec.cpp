// vecadd2's spec: c = a + b on host vectors, added on the GPU by one block of
// n threads. vecadd2() returns 0 when n threads fit one block and -1 (with a
// message, launching nothing) when they do not. Both tasks judge that same
// contract; they differ in their sizes: "add" has n that fit, "too_many" n
// that do not, so that `hpclab run vecadd2 --n N` is judged right for any N.
#include "course/spec_kit.h"

#include <fmt/format.h>

namespace {

using namespace hpclab;

// The maximum threads per block of every CUDA GPU since compute capability
// 2.0. The student's code must ask the GPU; the parent, which has no GPU
// handle here, judges with the value all of them share.
constexpr std::int64_t kMaxThreadsPerBlock = 1024;

class OneBlockTask : public VectorAddSpec {
public:
    OneBlockTask() : VectorAddSpec(Place::host) {}

    std::string locate(const Params&, std::string_view, std::uint64_t index) const override
    {
        return fmt::format("element {}, the one thread {} adds", index, index);
    }

    CheckResult check(const CheckInput& in) const override
    {
        const std::int64_t n = in.params.at("n");
        CheckResult r;
        if (n > kMaxThreadsPerBlock) {
            // c is not judged: nothing may be launched, so nothing is written.
            if (in.returned == -1) {
                r.summary = fmt::format("returned -1: n = {} threads do not fit one block (at most {})", n,
                                        kMaxThreadsPerBlock);
                return r;
            }
            r.kind = CheckResult::Kind::wrong_return;
            r.summary = fmt::format("vecadd2 returned {} for n = {}, but {} threads do not fit one block (at most {} "
                                    "threads per block): it must say so on stderr and return -1",
                                    in.returned, n, n, kMaxThreadsPerBlock);
            r.details.push_back("ask the GPU its limit (cudaDeviceGetAttribute with cudaDevAttrMaxThreadsPerBlock) "
                                "and compare n with it before allocating or launching anything");
            if (in.launch_error)
                r.details.push_back(fmt::format("a kernel launch failed (CUDA error {}): the GPU refuses a block "
                                                "of more threads than its limit, and runs nothing",
                                                in.launch_error));
            return r;
        }
        if (in.returned != 0) {
            r.kind = CheckResult::Kind::wrong_return;
            r.summary = fmt::format("vecadd2 returned {} for n = {}, which fits one block (at most {} threads): it "
                                    "must add the vectors and return 0",
                                    in.returned, n, kMaxThreadsPerBlock);
            return r;
        }
        return compare_outputs(*this, in);
    }
};

class AddTask final : public OneBlockTask {};

class TooManyTask final : public OneBlockTask {
public:
    // Nothing is moved when the call refuses: no throughput to show.
    Work work(const Params&) const override { return {}; }
};

}  // namespace

HPCLAB_REGISTER_TASK("vecadd2", "add", AddTask);
HPCLAB_REGISTER_TASK("vecadd2", "too_many", TooManyTask);
