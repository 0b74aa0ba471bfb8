#include "context.h"

#include "course/course_config.h"
#include "hpclab_build_config.h"

#include <cstdlib>

namespace hpclab::cli {

std::filesystem::path course_root()
{
    if (const char* r = std::getenv("HPCLAB_ROOT"); r && *r) return r;
    return HPCLAB_SOURCE_DIR;
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

}  // namespace hpclab::cli
