#include "grade/slurm_job.h"

#include <fmt/format.h>

namespace hpclab {

namespace {

// Single-quoted for bash: the paths and flags come from the instructor's
// command line, and may hold spaces.
std::string quoted(const std::string& s)
{
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

std::filesystem::path slurm_script_path(const std::filesystem::path& out) { return out / "slurm" / "grade.sbatch"; }

std::string slurm_script(const SlurmJob& j)
{
    std::string flags;
    for (const std::string& f : j.grade_flags) flags += " " + quoted(f);
    std::string s = "#!/bin/bash\n";
    s += "# Written by hpclab grade --slurm: one array task per chunk of the class, one GPU each.\n";
    s += "# Submit it with sbatch; after the array, `hpclab merge` makes the gradebook, and names\n";
    s += "# the chunks to submit again (sbatch --array=<k,...> this-file) if some did not finish.\n";
    s += "#SBATCH --job-name=hpclab-grade\n";
    s += fmt::format("#SBATCH --array=0-{}\n", j.chunks - 1);
    if (!j.gres.empty()) s += fmt::format("#SBATCH --gres={}\n", j.gres);
    s += fmt::format("#SBATCH --cpus-per-task={}\n", j.cpus_per_task);
    s += fmt::format("#SBATCH --time={}\n", j.time_limit);
    if (!j.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", j.partition);
    s += fmt::format("#SBATCH --output={}\n", (j.out / "slurm" / "chunk-%a.log").string());
    s += "set -euo pipefail\n";
    s += fmt::format("export HPCLAB_ROOT={}\n", quoted(j.course_root.string()));
    s += fmt::format("exec {} grade {} --out {}/chunks/\"$SLURM_ARRAY_TASK_ID\" --chunk \"$SLURM_ARRAY_TASK_ID/{}\" "
                     "--seed {}{}\n",
                     quoted(j.hpclab.string()), quoted(j.submissions.string()), quoted(j.out.string()), j.chunks,
                     j.seed, flags);
    return s;
}

std::string resubmit_command(const std::filesystem::path& out, const std::vector<int>& chunks)
{
    std::string list;
    for (int k : chunks) list += (list.empty() ? "" : ",") + std::to_string(k);
    return fmt::format("sbatch --array={} {}", list, slurm_script_path(out).string());
}

}  // namespace hpclab
