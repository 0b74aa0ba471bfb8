// A class graded in chunks: each chunk a share of the students on one GPU,
// graded by `hpclab grade --chunk k/K` into its own folder (chunks/<k>/, its
// own lock, its own resumable results), the chunks then merged into one
// gradebook (merge_chunks, class_grading.h). Two ways to run them:
// - a Slurm job array, a task per chunk: Slurm does the queueing, the GPUs
//   and the retries; hpclab only writes the batch script, so that it runs on
//   any cluster's own sbatch, and `hpclab merge` names the chunks to submit again;
// - local processes, one per GPU of this machine (`hpclab grade --gpus
//   0,1`), each grading its chunk on its GPU alone (every run it starts sees
//   that GPU only: CUDA_VISIBLE_DEVICES), the grading that started them
//   merging them as they end.
#pragma once

#include "gpu/gpu_probe.h"
#include "process/process.h"

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

// What each local chunk runs: the grading's own settings and flags.
struct LocalChunks {
    std::filesystem::path hpclab, course_root, submissions, out;
    std::uint64_t seed = 0;
    std::vector<GpuInfo> gpus;             // chunk k on gpus[k]
    std::vector<std::string> grade_flags;  // passed on to each chunk (--config, --jobs, ...)
};
// Chunk k's process: `hpclab grade --chunk k/K --gpus <its GPU>` into
// chunks/<k>/, all it prints going to its log as it goes (chunk_log),
// ending with the grading that started it.
ProcessSpec local_chunk_process(const LocalChunks& chunks, int k);
std::filesystem::path chunk_log(const std::filesystem::path& out, int k);  // chunks/<k>/grade.log

struct LocalChunkEnd {
    int chunk = 0;
    GpuInfo gpu;
    int exit_code = -1;                 // -1: it did not exit (start_error says why, or it was killed)
    std::string how;                    // "exit 0", "killed by ...", "did not start: ..."
    std::filesystem::path log;          // chunk_log: what it printed
    std::vector<std::string> summary;   // its lines that sum up the grading ("Graded ...", "Out of service ...")
    // Its GPU went out of service: the command that grades this chunk on a
    // healthy GPU of the grading (the same command would find its GPU out of
    // service again and grade nothing); empty otherwise.
    std::string elsewhere;
};
// Chunk k's own command, for a person's shell, on the GPU `on` instead of its own.
std::string local_chunk_command(const LocalChunks& chunks, int k, const GpuInfo& on);
// Every chunk at once, each on its GPU; returns when the last has ended.
std::vector<LocalChunkEnd> run_local_chunks(const LocalChunks& chunks);

// In a local chunk's process (HPCLAB_CHUNK_PARENT set): it ends when the
// grading that started it does (Ctrl-C there stops every chunk).
void end_with_parent_grading();

}  // namespace hpclab
