#include "committed_file.h"

#include "process.h"

namespace hpclab {

std::optional<std::string> committed_content(const std::filesystem::path& repo, const std::filesystem::path& relative)
{
    ProcessSpec git;
    // safe.directory: reading a checkout that another user owns (a copy on a
    // GPU machine, a shared course folder) is harmless, and git refuses it otherwise.
    git.argv = {"/usr/bin/env", "git", "-c", "safe.directory=*", "-C", repo.string(), "show",
                "HEAD:" + relative.generic_string()};
    git.wall_limit_s = 20;
    git.output_limit = 16 << 20;
    const ProcessResult r = run_process(git);
    if (!r.exited() || r.exit_code != 0 || r.out_truncated) return std::nullopt;
    return r.out;
}

}  // namespace hpclab
