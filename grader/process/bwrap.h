// The bubblewrap command line (bwrap, Debian's package "bubblewrap") that
// runs a step in its sandbox (process/sandbox.h says what the sandbox is):
// what it binds, its environment and device nodes. A process is started in
// one by process/process.cpp; whether one can be made here is sandbox.h's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace hpclab {

struct SandboxSpec {
    std::vector<std::filesystem::path> read_only;  // bound at the same path inside
    std::vector<std::filesystem::path> writable;   // the step's own folders (its work folder, a tool's log)
    std::filesystem::path work_dir;                // the cwd inside (one of `writable`)
    bool gpu = false;                              // the GPU's device nodes
    int gpu_minor = -1;                            // /dev/nvidia<minor> alone; -1: every /dev/nvidia<N>
    std::uint64_t tmp_bytes = 256ull << 20;        // /tmp inside
    std::vector<std::pair<std::string, std::string>> env;  // the whole environment inside
};

// HPCLAB_BWRAP (a carried copy), else the system's bwrap; empty: none.
std::string bwrap_path();

// The bwrap command line that runs `argv` inside the sandbox.
std::vector<std::string> sandboxed_argv(const SandboxSpec& spec, const std::vector<std::string>& argv);

// The system folders every step sees read-only: /usr, /etc, /bin and the
// library folders (or their links), /opt's compilers: none of which may hold
// `course_root` (then nothing is a sandbox: empty).
std::vector<std::filesystem::path> system_view(const std::filesystem::path& course_root);

// The environment a step inside gets: PATH, HOME=/tmp, and the driver's
// library path when the parent has one.
std::vector<std::pair<std::string, std::string>> sandbox_env();

}  // namespace hpclab
