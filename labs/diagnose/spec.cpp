// diagnose's specs: a matrix of rows x cols floats (by rows), transposed
// ("transpose": cols rows of rows floats) or each row scaled by its own
// factor ("scale_rows"). Both are exact: a copy, and one float product,
// which the CPU rounds as the GPU does.
#include "course/spec_kit.h"

#include <fmt/format.h>

namespace {

using namespace hpclab;

std::uint64_t elements(const Params& p) { return param_u64(p, "rows") * param_u64(p, "cols"); }

std::string element_at(std::uint64_t row, std::uint64_t col)
{
    return fmt::format("row {}, column {}", row, col);
}

class TransposeTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"in", ElemType::f32, Place::device, Role::input, elements(p)},
                {"out", ElemType::f32, Place::device, Role::output, elements(p)}};
    }
    std::vector<InputFill> input_fills(const Params&) const override { return {{"in", 1, -100.0, 100.0}}; }
    // out element i is row c = i / rows, column r = i % rows: in[r * cols + c].
    void reference(const Params& p, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto src = in.get<float>("in");
        for (std::size_t t = 0; t < idx.size(); ++t) expected[t] = src[read_at(p, idx[t])];
    }
    bool reads_known(const Params&) const override { return true; }
    ElementRange reads(const Params& p, const BufferDecl&, std::uint64_t, std::uint64_t i) const override
    {
        return {read_at(p, i), read_at(p, i) + 1};
    }
    std::string locate(const Params& p, std::string_view, std::uint64_t i) const override
    {
        const std::uint64_t rows = param_u64(p, "rows");
        return fmt::format("{} of the transpose: in's {}", element_at(i / rows, i % rows),
                           element_at(i % rows, i / rows));
    }
    Work work(const Params& p) const override { return {8.0 * static_cast<double>(elements(p)), 0}; }

private:
    static std::uint64_t read_at(const Params& p, std::uint64_t i)
    {
        const std::uint64_t rows = param_u64(p, "rows"), cols = param_u64(p, "cols");
        return (i % rows) * cols + i / rows;
    }
};

class ScaleRowsTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        return {{"in", ElemType::f32, Place::device, Role::input, elements(p)},
                {"f", ElemType::f32, Place::device, Role::input, param_u64(p, "rows")},
                {"out", ElemType::f32, Place::device, Role::output, elements(p)}};
    }
    // Factors of both signs, none near 0: a row scaled by the wrong factor
    // is seen.
    std::vector<InputFill> input_fills(const Params&) const override
    {
        return {{"in", 1, -100.0, 100.0}, {"f", 2, 0.5, 4.0}};
    }
    void reference(const Params& p, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const std::uint64_t cols = param_u64(p, "cols");
        const auto src = in.get<float>("in");
        const auto f = in.get<float>("f");
        for (std::size_t t = 0; t < idx.size(); ++t) expected[t] = src[idx[t]] * f[idx[t] / cols];  // a float product
    }
    bool reads_known(const Params&) const override { return true; }
    ElementRange reads(const Params& p, const BufferDecl& input, std::uint64_t, std::uint64_t i) const override
    {
        const std::uint64_t at = input.name == "f" ? i / param_u64(p, "cols") : i;
        return {at, at + 1};
    }
    std::string locate(const Params& p, std::string_view, std::uint64_t i) const override
    {
        const std::uint64_t cols = param_u64(p, "cols");
        return fmt::format("{}: in's element times f[{}]", element_at(i / cols, i % cols), i / cols);
    }
    Work work(const Params& p) const override
    {
        return {8.0 * static_cast<double>(elements(p)) + 4.0 * static_cast<double>(param_u64(p, "rows")), 0};
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("diagnose", "transpose", TransposeTask);
HPCLAB_REGISTER_TASK("diagnose", "scale_rows", ScaleRowsTask);
