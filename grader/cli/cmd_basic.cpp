// hpclab list, info, build.
#include "commands.h"

#include "hpclab_build_config.h"

#include <fmt/format.h>

namespace hpclab::cli {

int cmd_list(Context& ctx, bool markdown)
{
    if (markdown) {
        // The README's lab table, from the metadata (a test keeps them equal).
        fmt::print("| # | lab | what you write | the course's program | tasks |\n|---|---|---|---|---|\n");
        for (const auto& lab : ctx.catalog().labs()) {
            std::string tasks;
            for (const auto& t : lab.tasks) tasks += (tasks.empty() ? "" : ", ") + t.id;
            fmt::print("| {} | [{}](docs/{}.md) | {} | {} | {} |\n", lab.order, lab.id, lab.id, lab.title,
                       lab.course_program, tasks);
        }
        return kPass;
    }
    fmt::print("The labs, in course order:\n\n");
    for (const auto& lab : ctx.catalog().labs()) {
        fmt::print("  {:>2}. {:<10} {}\n", lab.order, lab.id, lab.title);
        fmt::print("      {:<10} edit {}, from the course's {}\n", "",
                   relative_to_root(ctx, lab.student_source()), lab.course_program);
        for (const auto& t : lab.tasks) fmt::print("      {:<10} - {}: {}\n", "", t.id, t.title);
    }
    fmt::print("\nRun one with: hpclab run <lab>   (the walkthroughs are in docs/<lab>.md)\n");
    return kPass;
}

int cmd_info(Context& ctx)
{
    const Toolchain& tc = ctx.toolchain();
    fmt::print("Course folder:  {}\n", ctx.catalog().root().string());
    fmt::print("Labs:           {}\n", ctx.catalog().ids());
    if (tc.available()) {
        fmt::print("CUDA compiler:  {}\n", tc.nvcc.string());
        fmt::print("Architectures:  {}  (override with HPCLAB_CUDA_ARCHITECTURES)\n", tc.architectures);
        fmt::print("Lab programs:   {}\n", tc.cache_dir.string());
    } else {
        fmt::print("CUDA compiler:  none - {}\n", tc.unavailable);
    }
    const GpuInfo& gpu = ctx.gpu();
    if (gpu.present)
        fmt::print("GPU:            {} (compute capability {}.{}, {:.1f} GB, driver CUDA {}, {})\n", gpu.name,
                   gpu.cc_major, gpu.cc_minor, gpu.memory_bytes / 1e9, gpu.driver_string(), gpu.uuid);
    else
        fmt::print("GPU:            none - {}\n", gpu.why_not);
    return kPass;
}

int cmd_build(Context& ctx, const std::string& lab_id, Variant v)
{
    const LabInfo& lab = ctx.lab(lab_id);
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab: cannot build: {}\n", ctx.toolchain().unavailable);
        return kSkipped;
    }
    const auto program = build_program(ctx, lab, v, false);
    if (!program) return kFail;
    fmt::print("Built {}\n", relative_to_root(ctx, *program));
    return kPass;
}

}  // namespace hpclab::cli
