#include "grade/class_chunks.h"

#include "grade/grade_folder.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <thread>

namespace hpclab {

namespace {

// The pid of the grading that started a local chunk, in the chunk's environment.
constexpr const char* kParentVariable = "HPCLAB_CHUNK_PARENT";

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

std::filesystem::path chunk_log(const std::filesystem::path& out, int k) { return GradeFolder(out).chunk_dir(k) / "grade.log"; }

ProcessSpec local_chunk_process(const LocalChunks& c, int k)
{
    const GpuInfo& gpu = c.gpus.at(static_cast<std::size_t>(k));
    ProcessSpec p;
    // Through a shell that sends all it prints to its log as it goes (a
    // class takes a while: `tail -f` follows it), then becomes hpclab.
    p.argv = {"/bin/sh", "-c", "log=$1; shift; exec \"$@\" > \"$log\" 2>&1", "sh", chunk_log(c.out, k).string(),
              c.hpclab.string(), "grade", c.submissions.string(), "--out", GradeFolder(c.out).chunk_dir(k).string(),
              "--chunk", fmt::format("{}/{}", k, c.gpus.size()), "--seed", std::to_string(c.seed),
              "--gpus", std::to_string(gpu.index)};
    p.argv.insert(p.argv.end(), c.grade_flags.begin(), c.grade_flags.end());
    p.set_env = {{"HPCLAB_ROOT", c.course_root.string()}, {kParentVariable, std::to_string(getpid())}};
    p.wall_limit_s = 1e7;  // a class takes what it takes: Ctrl-C or a kill ends it, as a grading on one GPU
    return p;
}

std::string local_chunk_command(const LocalChunks& c, int k, const GpuInfo& on)
{
    LocalChunks moved = c;
    moved.gpus.at(static_cast<std::size_t>(k)) = on;
    const ProcessSpec p = local_chunk_process(moved, k);
    std::string line;  // hpclab's own arguments, without the shell that sends them to the log
    for (auto a = std::find(p.argv.begin(), p.argv.end(), c.hpclab.string()); a != p.argv.end(); ++a)
        line += (line.empty() ? "" : " ") + quoted(*a);
    return line;
}

namespace {

// The lines of a chunk's output that sum its grading up (cmd_grade prints them).
std::vector<std::string> summary_lines(const std::string& out)
{
    std::vector<std::string> lines;
    for (const std::string& line : split(out, '\n'))
        for (const char* start : {"Graded ", "Out of service", "The GPU's time", "hpclab: ", "sh: "})
            if (line.rfind(start, 0) == 0) lines.push_back(line);
    return lines;
}

LocalChunkEnd run_chunk(const LocalChunks& c, int k)
{
    std::error_code ec;
    std::filesystem::create_directories(GradeFolder(c.out).chunk_dir(k), ec);  // for its log; the chunk says why if it cannot
    const ProcessResult r = run_process(local_chunk_process(c, k));
    LocalChunkEnd end {.chunk = k, .gpu = c.gpus[static_cast<std::size_t>(k)], .exit_code = r.exited() ? r.exit_code : -1,
                       .log = chunk_log(c.out, k)};
    end.how = !r.started ? "did not start: " + r.start_error
              : r.exited() ? fmt::format("exit {}", r.exit_code)
              : r.signal   ? "killed by " + describe_signal(r.signal)
                           : "killed";
    end.summary = summary_lines(read_text_file(end.log).value_or("") + r.out + r.err);  // the shell's own complaints too
    return end;
}

}  // namespace

std::vector<LocalChunkEnd> run_local_chunks(const LocalChunks& c)
{
    std::vector<LocalChunkEnd> ends(c.gpus.size());
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < c.gpus.size(); ++k)
        threads.emplace_back([&, k] { ends[k] = run_chunk(c, static_cast<int>(k)); });
    for (std::thread& t : threads) t.join();
    return ends;
}

void end_with_parent_grading()
{
    const char* parent = std::getenv(kParentVariable);
    if (!parent || !*parent) return;
    const pid_t expected = static_cast<pid_t>(std::atol(parent));
    unsetenv(kParentVariable);  // not for the programs it starts
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != expected) std::raise(SIGTERM);  // it ended before the line above
}

}  // namespace hpclab
