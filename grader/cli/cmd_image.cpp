// hpclab image: a PGM image (the rotation lab's input, or what a run wrote)
// as a PNG for the docs, or as a PGM; with --reference <lab>, what the lab's
// CPU reference makes of it instead: the image a correct solution writes,
// with no GPU.
#include "commands.h"

#include "course/image_task.h"
#include "course/task_spec.h"

#include <fmt/format.h>

#include <fstream>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

// The lab's first task that works on images.
const TaskSpec& image_spec(const LabInfo& lab)
{
    for (const auto& task : lab.tasks)
        if (const TaskSpec* spec = find_task_spec(lab.id, task.id); dynamic_cast<const ImageTask*>(spec))
            return *spec;
    throw UsageError(fmt::format("--reference {}: the lab does not work on images", lab.id));
}

void write_image(const fs::path& file, const GrayImage& image)
{
    const std::string ext = file.extension().string();
    if (ext == ".pgm") return write_pgm(file, image);
    if (ext != ".png") throw UsageError(fmt::format("{}: the output is a .png or a .pgm file", file.string()));
    const std::string png = png_of(image);
    std::ofstream out(file, std::ios::binary);
    out.write(png.data(), static_cast<std::streamsize>(png.size()));
    if (!out.flush()) throw UsageError(fmt::format("{}: cannot be written", file.string()));
}

}  // namespace

int cmd_image(Context& ctx, const ImageArgs& args)
{
    GrayImage image;
    try {
        image = read_pgm(args.input);
    } catch (const PgmError& e) {
        throw UsageError(e.what());
    }
    if (!args.reference.empty()) image = reference_image(image_spec(ctx.lab(args.reference)), image);
    try {
        write_image(args.output, image);
    } catch (const PgmError& e) {
        throw UsageError(e.what());
    }
    fmt::print("Wrote {} ({} x {}{})\n", args.output, image.width, image.height,
               args.reference.empty() ? "" : fmt::format(", the CPU reference of lab {}", args.reference));
    return kPass;
}

}  // namespace hpclab::cli
