#include "context.h"

#include "hpclab_build_config.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace hpclab::cli {

namespace {

// Edit distance, to suggest "vecadd3" for "vecad3".
std::size_t distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

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
    std::string msg = "unknown lab '" + id + "'. The labs are: " + catalog_.ids() + ".";
    const LabInfo* best = nullptr;
    std::size_t best_d = 3;
    for (const auto& l : catalog_.labs())
        if (const std::size_t d = distance(id, l.id); d < best_d) {
            best_d = d;
            best = &l;
        }
    if (best) msg += " Did you mean '" + best->id + "'?";
    throw UsageError(msg);
}

}  // namespace hpclab::cli
