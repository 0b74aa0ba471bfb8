#include "context.h"

#include "course/course_config.h"
#include "hpclab_build_config.h"
#include "process/cgroup.h"
#include "process/sandbox.h"
#include "run/profiler.h"
#include "util/shown_path.h"

#include <cstdlib>

namespace hpclab::cli {

std::filesystem::path course_root()
{
    if (const char* r = std::getenv("HPCLAB_ROOT"); r && *r) return r;
    return HPCLAB_SOURCE_DIR;
}

std::string relative_to_root(const Context& ctx, const std::filesystem::path& p)
{
    return shown_path(p, ctx.catalog().root());
}

Context::Context(const std::filesystem::path& root)
    : catalog_(Catalog::load(root)), toolchain_(Toolchain::configured())
{
    const auto config = default_course_config(root);
    catalog_.use_course_thresholds(read_course_thresholds(config, catalog_), config);
}

const GpuInfo& Context::gpu()
{
    if (!gpu_) gpu_ = probe_gpu();
    return *gpu_;
}

const LabInfo& Context::lab(const std::string& id) const
{
    if (const LabInfo* lab = catalog_.find(id)) return *lab;
    throw UsageError(catalog_.unknown_lab(id));
}

std::optional<std::string> unmet_need(const std::vector<std::string>& needs)
{
    for (const std::string& need : needs) {
        if (need == "sandbox")
            if (const auto why = sandbox_unavailable()) return "needs the sandbox, and none can be made here: " + *why;
        if (need == "cgroup")
            if (const CgroupBase& base = cgroup_base(); !base.dir)
                return "needs a cgroup hpclab can write (the run's memory and process limits), and there is none: " +
                       base.why_not;
        if (need == "ncu" && !find_ncu(Toolchain::configured().nvcc))
            return "needs the profiler for its sentence, and " + std::string(kNoNcu);
    }
    return std::nullopt;
}

}  // namespace hpclab::cli
