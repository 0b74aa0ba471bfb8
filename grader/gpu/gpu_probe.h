// What GPU this machine has, asked of the CUDA driver (libcuda) directly:
// hpclab itself never links the CUDA runtime nor opens a context, so this
// works, and answers "no GPU" quickly, on machines without one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct GpuInfo {
    bool present = false;
    std::string why_not;   // when not present: no driver, no device, ...
    std::string name;
    std::string uuid;      // "GPU-xxxxxxxx-..."
    int cc_major = 0, cc_minor = 0;
    int driver_version = 0;  // e.g. 13000 for CUDA 13.0
    std::uint64_t memory_bytes = 0;
    int sm_count = 0;      // its multiprocessors (SMs); 0: unknown
    int device_count = 0;
    int minor = -1;        // its /dev/nvidia<minor> (NVML); -1: unknown
    int index = 0;         // as the CUDA driver numbers the visible GPUs
    // Chosen by hpclab grade --gpus: each of its runs sees this GPU alone
    // (CUDA_VISIBLE_DEVICES=<uuid>). Otherwise runs see the GPUs as hpclab does.
    bool pinned = false;
    std::string visible_as() const { return pinned ? uuid : ""; }

    std::string driver_string() const;  // "13.0"
};

// The numbers N of the GPUs' device nodes, /dev/nvidia<N> (the driver's own
// nodes, nvidiactl and nvidia-uvm, are not GPUs), in increasing order; read
// from the folder, without the driver: what a sandbox passes on, and how
// many GPUs this machine has before anything asks CUDA.
std::vector<int> gpu_node_minors(const std::filesystem::path& dev = "/dev");

// Device `index` as the CUDA driver numbers them (CUDA_VISIBLE_DEVICES applies).
GpuInfo probe_gpu(int index = 0);
// Why no GPU can be here, known in milliseconds without starting the driver
// (its library is not installed): probe_gpu's reason; nothing when one may be.
std::optional<std::string> no_gpu_driver();
// Every visible GPU, in the driver's order (one entry saying why when there is none).
std::vector<GpuInfo> probe_gpus();

// Other processes with a CUDA context on any GPU of this machine right now
// (NVML); nothing when NVML cannot tell. hpclab itself holds no context,
// and its own lab programs (its descendants: a check's timed programs
// waiting at their gates) are not counted, nor are other hpclab processes'
// (their GPU turns keep them off the GPUs during this one's timed calls):
// any other is another user, and timings taken meanwhile are not reliable
// (nor are timings taken when nobody can tell). Every GPU, not only the
// check's: a program calling the driver on one GPU slows timed calls on
// another (gpu/gpu_turns.h).
std::optional<int> gpu_processes_now();
// The same processes, each as "name (pid N)" (empty when none or NVML cannot tell).
std::vector<std::string> gpu_other_processes_named();

// Who uses the GPU now, as NVML sees it: hpclab's own descendants (its lab
// programs) apart from the other processes, and the device memory in use.
struct GpuUsage {
    int others = 0;                 // processes of no hpclab
    std::vector<std::string> others_named;  // each as "name (pid N)", for a message
    int hpclab_runs = 0;            // lab programs of other hpclab processes (they take GPU turns: gpu/gpu_turns.h)
    std::vector<int> own_pids;
    std::uint64_t used_bytes = 0;
    int anyone_else() const { return others + hpclab_runs; }
};
// The GPU of `uuid` (empty: the first); nothing when NVML cannot tell.
std::optional<GpuUsage> gpu_usage_now(const std::string& uuid = "");

// Whose process `pid` is, from its parents read in /proc: this process's
// (a descendant), another hpclab process's (an ancestor named hpclab), or
// someone else's. A process of another PID namespace is not found: someone else's.
// A process already ended when its /proc entry was read is `gone`: NVML's
// list still names processes that are exiting (checks beside this one end
// theirs all the time), and an ended process slows nothing any more.
enum class Ancestry { own, other_hpclab, other, gone };
Ancestry ancestry_of(int pid);
inline bool is_own_descendant(int pid) { return ancestry_of(pid) == Ancestry::own; }

// The errors the driver reports on one GPU from the moment this is made:
// NVML's events for an Xid (a fault, a hang, a reset) and a double-bit ECC
// error. What a program that hurt the GPU leaves, as the driver saw it,
// whatever the program itself says.
struct GpuErrors {
    std::vector<unsigned long long> xids;  // in the order reported
    int double_bit_ecc = 0;
};
class GpuErrorWatch {
public:
    explicit GpuErrorWatch(const std::string& uuid);
    ~GpuErrorWatch();
    GpuErrorWatch(const GpuErrorWatch&) = delete;
    GpuErrorWatch& operator=(const GpuErrorWatch&) = delete;
    // Every event so far; nothing when it cannot tell (no NVML, or its
    // events are not offered here).
    std::optional<GpuErrors> reported();

private:
    std::mutex mutex_;
    void* set_ = nullptr;  // NVML's event set; null: it cannot tell
    GpuErrors seen_;
};

}  // namespace hpclab
