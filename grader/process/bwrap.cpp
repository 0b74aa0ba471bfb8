#include "process/bwrap.h"

#include "gpu/gpu_probe.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

bool contains(const fs::path& dir, const fs::path& inner)
{
    const auto d = dir.lexically_normal().string(), i = inner.lexically_normal().string();
    return i == d || i.rfind(d + (d.back() == '/' ? "" : "/"), 0) == 0;
}

// The driver's shared nodes and the GPU's own: a run sees no other GPU.
std::vector<std::string> gpu_nodes(const SandboxSpec& spec)
{
    if (!spec.gpu) return {};
    std::vector<std::string> nodes = {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"};
    if (spec.gpu_minor >= 0) {
        nodes.push_back("/dev/nvidia" + std::to_string(spec.gpu_minor));
        return nodes;
    }
    for (int minor : gpu_node_minors()) nodes.push_back("/dev/nvidia" + std::to_string(minor));
    return nodes;
}

}  // namespace

std::string bwrap_path()
{
    if (const char* b = std::getenv("HPCLAB_BWRAP"); b && *b) return b;
    for (const char* p : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
        std::error_code ec;
        if (fs::exists(p, ec)) return p;
    }
    return "";
}

std::vector<fs::path> system_view(const fs::path& course_root)
{
    std::vector<fs::path> view;
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(course_root, ec);
    for (const char* dir : {"/usr", "/etc", "/opt/gcc", "/usr/local/nvidia"}) {
        if (!fs::exists(dir, ec)) continue;
        if (contains(dir, root)) return {};  // the course inside a system folder: no view hides it
        view.emplace_back(dir);
    }
    return view;
}

std::vector<std::pair<std::string, std::string>> sandbox_env()
{
    std::vector<std::pair<std::string, std::string>> env = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", "/tmp"}};
    for (const char* name : {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "HPCLAB_PROFILE"})
        if (const char* v = std::getenv(name)) env.emplace_back(name, v);
    return env;
}

std::vector<std::string> sandboxed_argv(const SandboxSpec& spec, const std::vector<std::string>& argv)
{
    std::vector<std::string> a = {bwrap_path(), "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"};
    // The merged-/usr links (/bin -> usr/bin ...) as links, or the folders themselves.
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib64", "/lib32"}) {
        std::error_code ec;
        if (fs::is_symlink(top, ec)) a.insert(a.end(), {"--symlink", fs::read_symlink(top, ec).string(), top});
        else if (fs::is_directory(top, ec)) a.insert(a.end(), {"--ro-bind", top, top});
    }
    // /tmp first: the folders bound below may lie under /tmp (a checkout
    // there, the run's work folder), and a tmpfs mounted after them would hide them.
    a.insert(a.end(), {"--size", std::to_string(spec.tmp_bytes), "--tmpfs", "/tmp"});
    // Each folder once, by its real path: one inside a folder already bound
    // is there (binding it again onto a link inside would fail).
    std::vector<fs::path> bound;
    for (const auto& p : spec.read_only) {
        std::error_code ec;
        const fs::path real = fs::weakly_canonical(p, ec);
        if (std::any_of(bound.begin(), bound.end(), [&](const fs::path& b) { return contains(b, real); })) continue;
        bound.push_back(real);
        a.insert(a.end(), {"--ro-bind-try", real.string(), real.string()});
        if (!ec && real != p.lexically_normal()) a.insert(a.end(), {"--symlink", real.string(), p.string()});
    }
    a.insert(a.end(), {"--dev", "/dev", "--proc", "/proc"});
    for (const auto& p : spec.writable) a.insert(a.end(), {"--bind", p.string(), p.string()});
    for (const auto& node : gpu_nodes(spec)) a.insert(a.end(), {"--dev-bind-try", node, node});
    if (!spec.work_dir.empty()) a.insert(a.end(), {"--chdir", spec.work_dir.string()});
    for (const auto& [name, value] : spec.env) a.insert(a.end(), {"--setenv", name, value});
    a.insert(a.end(), argv.begin(), argv.end());
    return a;
}

}  // namespace hpclab
