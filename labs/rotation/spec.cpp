// rotation's spec: rotate a grayscale image (floats, height rows of width
// pixels) 90 degrees clockwise into width rows of height pixels. Both tasks
// ("naive" and "tiled") compute the same image; they differ in how (the
// metadata: shared memory, speed). Both also run on a real image
// (ImageTask): `hpclab run rotation` rotates labs/rotation/chelsea.pgm.
#include "course/image_task.h"
#include "util/parallel.h"
#include "course/spec_kit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace hpclab;

class RotationSpec : public TaskSpec, public ImageTask {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const std::uint64_t pixels = param_u64(p, "width") * param_u64(p, "height");
        return {{"in", ElemType::f32, Place::device, Role::input, pixels},
                {"out", ElemType::f32, Place::device, Role::output, pixels}};
    }
    // Gray levels, as floats with fractional parts: every pixel differs,
    // so a pixel copied to the wrong place is seen.
    std::vector<InputFill> input_fills(const Params&) const override { return {{"in", 1, 0.0, 255.0}}; }
    // Output pixel (row r, column c) is input pixel x = r, y = height - 1 - c.
    void reference(const Params& params, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const std::uint64_t width = param_u64(params, "width"), height = param_u64(params, "height");
        const auto src = in.get<float>("in");
        for (std::size_t t = 0; t < idx.size(); ++t) {
            const std::uint64_t x = idx[t] / height, y = height - 1 - idx[t] % height;
            expected[t] = src[y * width + x];
        }
    }
    bool reads_known(const Params&) const override { return true; }
    ElementRange reads(const Params& params, const BufferDecl&, std::uint64_t, std::uint64_t i) const override
    {
        const std::uint64_t width = param_u64(params, "width"), height = param_u64(params, "height");
        const std::uint64_t at = (height - 1 - i % height) * width + i / height;  // as reference() reads it
        return {at, at + 1};
    }
    std::string locate(const Params& params, std::string_view, std::uint64_t index) const override
    {
        const std::uint64_t height = param_u64(params, "height");
        const std::uint64_t row = index / height, col = index % height;
        return fmt::format("row {}, column {} of the rotated image: input pixel x = {}, y = {}", row, col, row,
                           height - 1 - col);
    }
    Work work(const Params& params) const override
    {
        return {8.0 * static_cast<double>(params.at("width")) * static_cast<double>(params.at("height")), 0};
    }

    // On a real image.
    Params params_for(const GrayImage& image) const override
    {
        return {{"width", image.width}, {"height", image.height}};
    }
    void fill_from(const GrayImage& image, CallBuffers& call) const override
    {
        const auto in = call.get<float>("in");
        if (in.size() != image.pixels.size()) throw std::logic_error("rotation: image and buffer sizes differ");
        std::copy(image.pixels.begin(), image.pixels.end(), in.begin());
    }
    // The output buffer is width rows of height pixels: an image of width
    // `height` and height `width`. Pixels are rounded and clamped to the
    // gray range; a NaN (a pixel never written holds one) shows as black.
    GrayImage output_image(const Params& params, const CallBuffers& call, int maxval) const override
    {
        GrayImage img;
        img.width = static_cast<int>(params.at("height"));
        img.height = static_cast<int>(params.at("width"));
        img.maxval = maxval;
        const auto out = call.get<float>("out");
        img.pixels.resize(out.size());
        parallel_for(out.size(), [&](std::uint64_t b, std::uint64_t e) {
            for (std::uint64_t i = b; i < e; ++i) {
                const float v = out[i];
                img.pixels[i] = std::isnan(v) ? 0
                                              : static_cast<std::uint16_t>(
                                                    std::clamp(std::round(static_cast<double>(v)), 0.0,
                                                               static_cast<double>(maxval)));
            }
        });
        return img;
    }
};

class NaiveTask final : public RotationSpec {};
class TiledTask final : public RotationSpec {};

}  // namespace

HPCLAB_REGISTER_TASK("rotation", "naive", NaiveTask);
HPCLAB_REGISTER_TASK("rotation", "tiled", TiledTask);
