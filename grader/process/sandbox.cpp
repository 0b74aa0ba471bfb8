#include "process/sandbox.h"

#include "process/process.h"

#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

#include <stdlib.h>

namespace hpclab {

namespace {

std::mutex g_mutex;
std::optional<std::optional<std::string>> g_unavailable;  // outer: not tried yet

// One sandbox that runs `true`: the answer for every later step.
std::optional<std::string> try_sandbox()
{
    if (const char* off = std::getenv("HPCLAB_NO_SANDBOX"); off && std::string(off) == "1")
        return std::string("HPCLAB_NO_SANDBOX=1");
    const std::string bwrap = bwrap_path();
    if (bwrap.empty()) return std::string("bubblewrap (bwrap) is not installed: ./setup installs it");
    ProcessSpec probe;
    probe.argv = {bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all",
                  "--die-with-parent", "/bin/true"};
    probe.wall_limit_s = 10;
    const ProcessResult r = run_process(probe);
    if (r.exited() && r.exit_code == 0) return std::nullopt;
    std::string err = r.start_error.empty() ? r.err : r.start_error;
    if (const auto nl = err.find('\n'); nl != std::string::npos) err.resize(nl);
    return fmt::format("bwrap cannot make a sandbox here ({})", err.empty() ? "no reason given" : err);
}

}  // namespace

std::optional<std::string> sandbox_unavailable()
{
    std::lock_guard lock(g_mutex);
    if (!g_unavailable) g_unavailable = try_sandbox();
    return *g_unavailable;
}

void disable_sandbox(const std::string& why)
{
    std::lock_guard lock(g_mutex);
    g_unavailable = std::optional<std::string>(why);
}

std::optional<SandboxSpec> submission_sandbox(const SubmissionView& view)
{
    if (sandbox_unavailable()) return std::nullopt;
    SandboxSpec sb;
    sb.read_only = system_view(view.course_root);
    if (sb.read_only.empty()) return std::nullopt;
    sb.read_only.push_back(std::filesystem::absolute(view.program));
    if (!view.wrapper.empty()) sb.read_only.push_back(std::filesystem::absolute(view.wrapper));
    for (const auto& folder : view.wrapper_folders) sb.read_only.push_back(std::filesystem::absolute(folder));
    sb.writable = view.writable;
    sb.writable.push_back(view.work_dir);
    sb.work_dir = view.work_dir;
    sb.gpu = true;
    sb.gpu_minor = view.gpu_minor;
    sb.env = sandbox_env();
    sb.env.insert(sb.env.end(), view.gpu_env.begin(), view.gpu_env.end());
    return sb;
}

}  // namespace hpclab
