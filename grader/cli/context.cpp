#include "context.h"

#include "hpclab_build_config.h"
#include "util/text.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace hpclab::cli {


std::filesystem::path course_root()
{
    if (const char* r = std::getenv("HPCLAB_ROOT"); r && *r) return r;
    return HPCLAB_SOURCE_DIR;
}

Context::Context(const std::filesystem::path& root)
    : catalog_(Catalog::load(root)), toolchain_(Toolchain::configured())
{
}

const GpuInfo& Context::gpu()
{
    if (!gpu_) gpu_ = probe_gpu();
    return *gpu_;
}

const LabInfo& Context::lab(const std::string& id) const
{
    if (const LabInfo* lab = catalog_.find(id)) return *lab;
    std::vector<std::string> ids;
    for (const auto& l : catalog_.labs()) ids.push_back(l.id);
    const std::string msg = "unknown lab '" + id + "'. The labs are: " + catalog_.ids() + "." + did_you_mean(id, ids);
    throw UsageError(msg);
}

}  // namespace hpclab::cli
