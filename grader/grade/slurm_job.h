// A class graded on a Slurm cluster: one job array, each task a chunk of the
// students on one GPU, running `hpclab grade --chunk k/K` into its own folder
// (chunks/<k>/, its own lock, its own resumable results); `hpclab merge`
// makes one gradebook of the chunks and names those to submit again.
// Slurm does the queueing, the GPUs and the retries; hpclab only writes the
// batch script, so that it runs on any cluster's own sbatch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hpclab {

struct SlurmJob {
    std::filesystem::path hpclab;       // this program
    std::filesystem::path course_root;  // HPCLAB_ROOT for the tasks
    std::filesystem::path submissions, out;
    std::uint64_t seed = 0;
    int chunks = 1;
    std::string partition;              // empty: the cluster's default
    std::string time_limit = "02:00:00";
    std::string gres = "gpu:1";
    int cpus_per_task = 8;
    std::vector<std::string> grade_flags;  // passed on to each chunk (--config, --no-sandbox, ...)
};

std::string slurm_script(const SlurmJob& job);
std::filesystem::path slurm_script_path(const std::filesystem::path& out);

// "sbatch --array=2,5 <script>"
std::string resubmit_command(const std::filesystem::path& out, const std::vector<int>& chunks);

}  // namespace hpclab
