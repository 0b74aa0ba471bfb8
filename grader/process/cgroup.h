// A cgroup v2 scope per run of a submission: its host memory (memory.max,
// no swap) and its processes and threads (pids.max) are capped, everything
// in it is killed at the end with cgroup.kill (whatever sessions or parents
// its processes made), and the kernel's counters say which limit it met.
//
// The scopes live in one folder hpclab makes for itself, hpclab-<pid>,
// under the nearest cgroup of its own or above whose children can have the
// memory and pids controllers (cgroup v2 lets a cgroup with processes in it
// give controllers to no child, so hpclab's own cgroup usually cannot be
// that parent). HPCLAB_CGROUP names one instead (a folder delegated to the
// instructor, systemd-run --user -p Delegate=yes). Where none is writable
// (no cgroup v2, a cgroup v1 machine, no rights) runs go without: the
// sandbox's pid namespace still ends every process, and the limits that
// remain are the kernel's per-process ones (process/process.h).
#pragma once

#include "process/process.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace hpclab {

struct CgroupLimits {
    std::uint64_t memory_bytes = 8ull << 30;
    std::uint64_t pids = 512;  // threads count: CUDA and compute-sanitizer start dozens
};

// The folder run scopes are made in, or why there is none. `cgroup_root` is
// where cgroup2 is mounted and `own` this process's cgroup path (tests give
// a fake tree).
struct CgroupBase {
    std::optional<std::filesystem::path> dir;
    std::string why_not;
};
CgroupBase find_cgroup_base(const std::filesystem::path& cgroup_root, const std::string& own);
// Once per hpclab process, from /sys/fs/cgroup and /proc/self/cgroup.
const CgroupBase& cgroup_base();

// One run's scope: made with its limits, joined by the run's first process
// (ProcessSpec::cgroup_procs), killed and removed with this object.
class RunCgroup {
public:
    RunCgroup(const std::filesystem::path& base, const CgroupLimits& limits);
    ~RunCgroup();
    RunCgroup(const RunCgroup&) = delete;
    RunCgroup& operator=(const RunCgroup&) = delete;

    bool ok() const { return ok_; }
    std::filesystem::path procs_file() const { return dir_ / "cgroup.procs"; }
    // Every process in the scope killed, and waited for (a moment at most).
    void kill_all();
    // Which limit the run met, in a sentence; empty when none.
    std::string limit_met() const;

private:
    std::filesystem::path dir_;
    CgroupLimits limits_;
    bool ok_ = false;
};

// A sandboxed run of a submission in a scope of its own, where hpclab has a
// folder for scopes: `ps` joins it and kills what is left in it as it ends.
// Null where no scope is made (the run goes without, as cgroup_base() says).
// Once the process has ended, the scope's limit_met() says which limit it met.
std::unique_ptr<RunCgroup> contain(ProcessSpec& ps, const CgroupLimits& limits);

}  // namespace hpclab
