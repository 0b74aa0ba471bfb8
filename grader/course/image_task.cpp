#include "course/image_task.h"

#include <numeric>
#include <stdexcept>

namespace hpclab {

namespace {

// Every element of the output buffer `e`, set to the spec's reference.
void fill_with_reference(const TaskSpec& spec, const Params& params, CallBuffers& call, const CallBuffers::Entry& e)
{
    std::vector<std::uint64_t> indices(e.decl.count);
    std::iota(indices.begin(), indices.end(), std::uint64_t {0});
    std::vector<double> expected(indices.size()), scale(indices.size());
    spec.reference(params, call, e.decl.name, indices, expected, scale);
    if (e.decl.type == ElemType::f32) {
        const auto out = call.get<float>(e.decl.name);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(expected[i]);
    } else {
        const auto out = call.get<int>(e.decl.name);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(expected[i]);
    }
}

}  // namespace

GrayImage reference_image(const TaskSpec& spec, const GrayImage& input)
{
    const auto* image_task = dynamic_cast<const ImageTask*>(&spec);
    if (!image_task) throw std::logic_error("reference_image: the task does not work on images");
    const Params params = image_task->params_for(input);
    OwnedCallBuffers buffers(spec.buffers(params));
    image_task->fill_from(input, buffers.view());
    for (const auto& e : buffers.view().entries())
        if (e.decl.role == Role::output) fill_with_reference(spec, params, buffers.view(), e);
    return image_task->output_image(params, buffers.view(), input.maxval);
}

}  // namespace hpclab
