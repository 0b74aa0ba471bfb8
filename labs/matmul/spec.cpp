// matmul's spec: r = p * q for n x n float matrices in device memory, stored
// by rows. Both tasks ("naive" and "tiled") compute the same product; they
// differ in how (the metadata: launch shape, shared memory, speed).
#include "util/parallel.h"
#include "course/spec_kit.h"

#include <fmt/format.h>

#include <cmath>

namespace {

using namespace hpclab;

class MatmulSpec : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        return {{"p", ElemType::f32, Place::device, Role::input, n * n},
                {"q", ElemType::f32, Place::device, Role::input, n * n},
                {"r", ElemType::f32, Place::device, Role::output, n * n}};
    }
    // Both signs, so that the sums cancel and a float sum cannot overflow.
    std::vector<InputFill> input_fills(const Params&) const override { return {{"p", 1, -1.0, 1.0}, {"q", 2, -1.0, 1.0}}; }
    // The dot product of row i of p and column j of q in float64, for each
    // index. The scale of the tolerance is the sum of |p_ik * q_kj|: the
    // rounding error of a float sum grows with it, not with |r_ij| (which
    // can be near zero when the terms cancel).
    //
    // Large n is checked on a sample of elements, and reading a column of q
    // is n cache misses (the rows are 4n bytes apart) while a row of p
    // streams. So the indices are taken column by column: each column of q
    // that the batch needs is gathered once into a contiguous vector, and
    // every element of that column is then a dot product of two contiguous
    // vectors.
    void reference(const Params& params, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double> scale) const override
    {
        const std::uint64_t n = param_u64(params, "n");
        const float* p = in.get<float>("p").data();
        const float* q = in.get<float>("q").data();
        // The indices by column (a counting sort: a call hands the whole
        // sample at once, up to n * n indices), each thread a run of columns.
        std::vector<std::uint64_t> column_start(n + 1, 0);
        for (const std::uint64_t i : idx) ++column_start[i % n + 1];
        for (std::uint64_t j = 0; j < n; ++j) column_start[j + 1] += column_start[j];
        std::vector<std::size_t> order(idx.size());
        for (std::size_t t = 0; t < idx.size(); ++t) order[column_start[idx[t] % n]++] = t;
        const std::uint64_t grain = 64;
        parallel_for(
            order.size(),
            [&](std::uint64_t begin, std::uint64_t end) {
                std::vector<double> col(n);
                std::uint64_t gathered = n;  // no column yet
                for (std::uint64_t o = begin; o < end; ++o) {
                    const std::size_t t = order[o];
                    const std::uint64_t i = idx[t] / n, j = idx[t] % n;
                    if (j != gathered) {
                        for (std::uint64_t k = 0; k < n; ++k) col[k] = q[k * n + j];
                        gathered = j;
                    }
                    const float* row = p + i * n;
                    // Four partial sums: independent additions, faster than one chain.
                    double s[4] = {0, 0, 0, 0}, a[4] = {0, 0, 0, 0};
                    std::uint64_t k = 0;
                    for (; k + 4 <= n; k += 4)
                        for (int u = 0; u < 4; ++u) {
                            const double term = static_cast<double>(row[k + u]) * col[k + u];
                            s[u] += term;
                            a[u] += std::fabs(term);
                        }
                    for (; k < n; ++k) {
                        const double term = static_cast<double>(row[k]) * col[k];
                        s[0] += term;
                        a[0] += std::fabs(term);
                    }
                    expected[t] = (s[0] + s[1]) + (s[2] + s[3]);
                    scale[t] = (a[0] + a[1]) + (a[2] + a[3]);
                }
            },
            grain);
    }
    double reference_cost(const Params& params) const override { return static_cast<double>(params.at("n")); }
    std::string locate(const Params& params, std::string_view, std::uint64_t index) const override
    {
        const std::uint64_t n = param_u64(params, "n");
        return fmt::format("row {}, column {}", index / n, index % n);
    }
    Work work(const Params& params) const override
    {
        const double n = static_cast<double>(params.at("n"));
        return {12.0 * n * n, 2.0 * n * n * n};
    }
};

class NaiveTask final : public MatmulSpec {};
class TiledTask final : public MatmulSpec {};

}  // namespace

HPCLAB_REGISTER_TASK("matmul", "naive", NaiveTask);
HPCLAB_REGISTER_TASK("matmul", "tiled", TiledTask);
