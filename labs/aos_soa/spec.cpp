// aos_soa's spec: the same particles as an array of structures (the float
// buffer "p", 8 floats a particle) or as a structure of arrays (one buffer
// per field, named as the field). move_aos and move_soa compute
// xnew[i] = x[i] + vx[i] * DT from either layout; aos_to_soa copies every
// field from the first layout into the second.
#include "course/spec_kit.h"
#include "aos_soa.h"  // particle_t, DT: the same as the student's code

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>

namespace {

using namespace hpclab;

// The fields of particle_t in their order in the struct: the name of each
// buffer of the structure of arrays, and its offset in floats.
constexpr std::array<std::string_view, 8> kFields = {"x", "y", "z", "vx", "vy", "vz", "mass", "charge"};
constexpr std::uint64_t kFloats = kFields.size();  // floats per particle
static_assert(sizeof(particle_t) == kFloats * sizeof(float), "particle_t is eight floats, no padding");
static_assert(offsetof(particle_t, vx) == 3 * sizeof(float) && offsetof(particle_t, charge) == 7 * sizeof(float),
              "kFields lists particle_t's fields in their order");
constexpr std::uint64_t kX = 0, kVx = 3;

// Values of both signs, each field in the same range: the update moves
// x by up to 1 (|vx| * DT), well past the tolerance of a float sum.
constexpr double kLo = -100.0, kHi = 100.0;

BufferDecl aos_input(std::uint64_t n) { return {"p", ElemType::f32, Place::device, Role::input, n * kFloats}; }

// x + vx * DT in float64. A float computes it with a rounding of each term
// at most, so the tolerance's scale is |x| + |vx * DT|, not |xnew| (which
// is near zero where the two cancel).
void moved(double x, double vx, double& expected, double& scale)
{
    const double step = vx * static_cast<double>(DT);
    expected = x + step;
    scale = std::fabs(x) + std::fabs(step);
}

// The update's reference and its words, whatever the layout.
class MoveTask : public TaskSpec {
public:
    bool reads_known(const Params&) const override { return true; }  // particle i from particle i
    std::string locate(const Params&, std::string_view, std::uint64_t i) const override
    {
        return fmt::format("particle {}", i);
    }
};

class MoveAosTask final : public MoveTask {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        return {aos_input(n), {"xnew", ElemType::f32, Place::device, Role::output, n}};
    }
    std::vector<InputFill> input_fills(const Params&) const override { return {{"p", 1, kLo, kHi}}; }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double> scale) const override
    {
        const auto p = in.get<float>("p");
        for (std::size_t k = 0; k < idx.size(); ++k)
            moved(p[idx[k] * kFloats + kX], p[idx[k] * kFloats + kVx], expected[k], scale[k]);
    }
    // What the layout makes the GPU move: every particle's 32 bytes are
    // one sector, read whole although two of its floats are used; xnew
    // written once. No flops: a multiply-add a particle is nothing beside
    // its bytes, and the bench measures the update against a copy of them.
    Work work(const Params& p) const override
    {
        const double n = static_cast<double>(p.at("n"));
        return {(4.0 * kFloats + 4.0) * n, 0};
    }
};

class MoveSoaTask final : public MoveTask {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        std::vector<BufferDecl> out;
        for (const auto field : kFields) out.push_back({std::string(field), ElemType::f32, Place::device, Role::input, n});
        out.push_back({"xnew", ElemType::f32, Place::device, Role::output, n});
        return out;
    }
    std::vector<InputFill> input_fills(const Params&) const override
    {
        std::vector<InputFill> out;
        for (std::uint32_t f = 0; f < kFields.size(); ++f) out.push_back({std::string(kFields[f]), f + 1, kLo, kHi});
        return out;
    }
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double> scale) const override
    {
        const auto x = in.get<float>("x");
        const auto vx = in.get<float>("vx");
        for (std::size_t k = 0; k < idx.size(); ++k) moved(x[idx[k]], vx[idx[k]], expected[k], scale[k]);
    }
    // x and vx read once, xnew written once: the six other arrays are
    // never touched. Bound by the bytes, as the AoS update.
    Work work(const Params& p) const override
    {
        const double n = static_cast<double>(p.at("n"));
        return {12.0 * n, 0};
    }
};

class ConvertTask final : public TaskSpec {
public:
    bool reads_known(const Params&) const override { return true; }  // particle i's fields from particle i
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t n = param_u64(p, "n");
        std::vector<BufferDecl> out {aos_input(n)};
        for (const auto field : kFields) out.push_back({std::string(field), ElemType::f32, Place::device, Role::output, n});
        return out;
    }
    std::vector<InputFill> input_fills(const Params&) const override { return {{"p", 1, kLo, kHi}}; }
    void reference(const Params&, const CallBuffers& in, std::string_view output, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto p = in.get<float>("p");
        const std::uint64_t f = field_of(output);
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = p[idx[k] * kFloats + f];
    }
    std::string locate(const Params&, std::string_view output, std::uint64_t i) const override
    {
        return fmt::format("particle {}, field {}", i, output);
    }
    // Every byte of p read once, as many written once.
    Work work(const Params& p) const override
    {
        const double n = static_cast<double>(p.at("n"));
        return {2.0 * 4.0 * kFloats * n, 0};
    }

private:
    static std::uint64_t field_of(std::string_view name)
    {
        for (std::uint64_t f = 0; f < kFields.size(); ++f)
            if (kFields[f] == name) return f;
        throw std::logic_error(fmt::format("aos_soa: no field named {}", name));
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("aos_soa", "aos", MoveAosTask);
HPCLAB_REGISTER_TASK("aos_soa", "soa", MoveSoaTask);
HPCLAB_REGISTER_TASK("aos_soa", "convert", ConvertTask);
