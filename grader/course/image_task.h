// A task that can also run on a real image (the rotation lab): the runner
// takes its size from the image, fills the input with its pixels, and turns
// the output back into an image for the student to look at.
#pragma once

#include "course/call_buffers.h"
#include "course/params.h"
#include "course/pgm.h"
#include "course/task_spec.h"

namespace hpclab {

class ImageTask {
public:
    virtual ~ImageTask() = default;
    virtual Params params_for(const GrayImage& image) const = 0;
    virtual void fill_from(const GrayImage& image, CallBuffers& call) const = 0;
    // The output as an image, with the input's maximum gray value.
    virtual GrayImage output_image(const Params& params, const CallBuffers& call, int maxval) const = 0;
};

// What the lab's CPU reference makes of `input`: the image a correct
// solution writes (`hpclab image --reference`, for the docs, with no GPU).
// `spec` must also be an ImageTask.
GrayImage reference_image(const TaskSpec& spec, const GrayImage& input);

}  // namespace hpclab
