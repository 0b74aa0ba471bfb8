// Pieces several labs' specs share. A lab's spec.cpp builds its tasks from
// these when the task is the same computation as another lab's (vecadd1-3
// all add two vectors; they differ in where the vectors live and how the
// kernel is launched, which the metadata and the checks of launches say).
#pragma once

#include "course/random.h"
#include "course/task_spec.h"

namespace hpclab {

// n from the size parameters, as an element count.
inline std::uint64_t param_u64(const Params& p, const char* name) { return static_cast<std::uint64_t>(p.at(name)); }

// c = a + b over n ints, with the vectors in host or device memory.
class VectorAddSpec : public TaskSpec {
public:
    explicit VectorAddSpec(Place place) : place_(place) {}

    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        return {{"a", ElemType::i32, place_, Role::input, n},
                {"b", ElemType::i32, place_, Role::input, n},
                {"c", ElemType::i32, place_, Role::output, n}};
    }
    // Values whose sums fit an int: a wrong answer is never an overflow.
    std::vector<InputFill> input_fills(const Params&) const override
    {
        return {{"a", 1, -1000000, 1000000}, {"b", 2, -1000000, 1000000}};
    }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto a = in.get<int>("a");
        const auto b = in.get<int>("b");
        for (std::size_t k = 0; k < idx.size(); ++k)
            expected[k] = static_cast<double>(a[idx[k]]) + static_cast<double>(b[idx[k]]);
    }
    bool reads_known(const Params&) const override { return true; }  // c[i] from a[i] and b[i]
    Work work(const Params& p) const override { return {12.0 * static_cast<double>(p.at("n")), 0}; }

private:
    Place place_;
};

}  // namespace hpclab
