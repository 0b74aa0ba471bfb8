#include "gpu/gpu_probe.h"

#include "util/escape.h"
#include "util/proc_stat.h"
#include "util/timeline.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

namespace hpclab {

namespace {

// The few driver API entry points used, declared here so that hpclab builds
// without the CUDA headers (the CPU-only preset).
using CUresult = int;
using CUdevice = int;
struct CUuuid {
    unsigned char bytes[16];
};
constexpr int kAttrCcMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kAttrSmCount = 16;  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT

template <class F> F symbol(void* lib, const char* name) { return reinterpret_cast<F>(dlsym(lib, name)); }

}  // namespace

Ancestry ancestry_of(int pid)
{
    const int self = static_cast<int>(getpid());
    bool under_hpclab = false;  // an ancestor named hpclab, short of this process
    for (int hops = 0; pid > 1 && hops < 64; ++hops) {
        if (pid == self) return hops > 0 ? Ancestry::own : Ancestry::other;
        const auto stat = proc_stat(pid);
        if (!stat && hops == 0 && kill(pid, 0) != 0 && errno == ESRCH) return Ancestry::gone;  // not hidden: ended
        if (!stat) break;
        if (hops > 0 && stat->name == "hpclab") under_hpclab = true;
        pid = stat->parent;
    }
    // A lab program of another hpclab (a check beside this one): it runs in
    // that hpclab's GPU turns, as this one's runs do. (Whatever names itself
    // hpclab below this process is still this process's: the walk above
    // goes on to the top.)
    return under_hpclab ? Ancestry::other_hpclab : Ancestry::other;
}

std::string GpuInfo::driver_string() const
{
    return std::to_string(driver_version / 1000) + "." + std::to_string(driver_version % 1000 / 10);
}

namespace {

using NvmlDevice = void*;

// NVML, started once for the process and never shut down: each start
// costs a moment (it opens every GPU), and a check asks it several times.
struct Nvml {
    struct ProcessInfo {
        unsigned pid;
        unsigned long long used_gpu_memory;
        unsigned gpu_instance_id, compute_instance_id;
    };
    struct Memory {
        unsigned long long total, free, used;
    };
    int (*count)(unsigned*) = nullptr;
    int (*by_index)(unsigned, NvmlDevice*) = nullptr;
    int (*by_uuid)(const char*, NvmlDevice*) = nullptr;
    int (*minor)(NvmlDevice, unsigned*) = nullptr;
    int (*processes)(NvmlDevice, unsigned*, ProcessInfo*) = nullptr;
    int (*memory)(NvmlDevice, Memory*) = nullptr;
    // Its events (GpuErrorWatch), where the library has them.
    struct EventData {
        NvmlDevice device;
        unsigned long long type, data;
        unsigned gpu_instance, compute_instance;
    };
    int (*event_set_create)(void**) = nullptr;
    int (*supported_events)(NvmlDevice, unsigned long long*) = nullptr;
    int (*register_events)(NvmlDevice, unsigned long long, void*) = nullptr;
    int (*event_set_wait)(void*, EventData*, unsigned timeout_ms) = nullptr;
    int (*event_set_free)(void*) = nullptr;
    bool has_events() const
    {
        return event_set_create && supported_events && register_events && event_set_wait && event_set_free;
    }
};

// Null where there is no NVML (no driver) or it does not start.
const Nvml* nvml()
{
    static const std::optional<Nvml> started = []() -> std::optional<Nvml> {
        const double since = timeline_clock();
        void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return std::nullopt;
        Nvml n;
        auto init = symbol<int (*)()>(lib, "nvmlInit_v2");
        n.count = symbol<decltype(n.count)>(lib, "nvmlDeviceGetCount_v2");
        n.by_index = symbol<decltype(n.by_index)>(lib, "nvmlDeviceGetHandleByIndex_v2");
        n.by_uuid = symbol<decltype(n.by_uuid)>(lib, "nvmlDeviceGetHandleByUUID");
        n.minor = symbol<decltype(n.minor)>(lib, "nvmlDeviceGetMinorNumber");
        n.processes = symbol<decltype(n.processes)>(lib, "nvmlDeviceGetComputeRunningProcesses_v3");
        n.memory = symbol<decltype(n.memory)>(lib, "nvmlDeviceGetMemoryInfo");
        n.event_set_create = symbol<decltype(n.event_set_create)>(lib, "nvmlEventSetCreate");
        n.supported_events = symbol<decltype(n.supported_events)>(lib, "nvmlDeviceGetSupportedEventTypes");
        n.register_events = symbol<decltype(n.register_events)>(lib, "nvmlDeviceRegisterEvents");
        n.event_set_wait = symbol<decltype(n.event_set_wait)>(lib, "nvmlEventSetWait_v2");
        n.event_set_free = symbol<decltype(n.event_set_free)>(lib, "nvmlEventSetFree");
        const bool ok = init && n.count && n.by_index && n.by_uuid && n.minor && n.processes && n.memory && init() == 0;
        timeline_note(since, "NVML started");
        if (!ok) return std::nullopt;
        return n;
    }();
    return started ? &*started : nullptr;
}

}  // namespace

// The device node's minor number of the GPU of `uuid`, from NVML; -1 when
// it cannot tell (the sandbox then gives every GPU's node).
int nvml_minor(const std::string& uuid)
{
    const Nvml* n = nvml();
    if (!n || uuid.empty()) return -1;
    NvmlDevice dev = nullptr;
    unsigned m = 0;
    return n->by_uuid(uuid.c_str(), &dev) == 0 && n->minor(dev, &m) == 0 ? static_cast<int>(m) : -1;
}

namespace {
constexpr const char* kNoDriver = "no NVIDIA driver is installed (libcuda.so.1 not found)";
}

std::optional<std::string> no_gpu_driver()
{
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) return kNoDriver;
    dlclose(lib);
    return std::nullopt;
}

GpuInfo probe_gpu(int index)
{
    GpuInfo info;
    info.index = index;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        info.why_not = kNoDriver;
        return info;
    }
    auto cuInit = symbol<CUresult (*)(unsigned)>(lib, "cuInit");
    auto cuDriverGetVersion = symbol<CUresult (*)(int*)>(lib, "cuDriverGetVersion");
    auto cuDeviceGetCount = symbol<CUresult (*)(int*)>(lib, "cuDeviceGetCount");
    auto cuDeviceGet = symbol<CUresult (*)(CUdevice*, int)>(lib, "cuDeviceGet");
    auto cuDeviceGetName = symbol<CUresult (*)(char*, int, CUdevice)>(lib, "cuDeviceGetName");
    auto cuDeviceGetAttribute = symbol<CUresult (*)(int*, int, CUdevice)>(lib, "cuDeviceGetAttribute");
    auto cuDeviceTotalMem = symbol<CUresult (*)(std::size_t*, CUdevice)>(lib, "cuDeviceTotalMem_v2");
    auto cuDeviceGetUuid = symbol<CUresult (*)(CUuuid*, CUdevice)>(lib, "cuDeviceGetUuid");
    if (!cuInit || !cuDeviceGetCount || !cuDeviceGet || !cuDeviceGetName || !cuDeviceGetAttribute) {
        info.why_not = "the NVIDIA driver library is incomplete";
        return info;
    }
    if (cuDriverGetVersion) cuDriverGetVersion(&info.driver_version);
    const double since = timeline_clock();
    const CUresult init = cuInit(0);
    timeline_note(since, "cuInit");
    if (init != 0) {
        info.why_not = init == 100 ? "no CUDA GPU is visible (CUDA_ERROR_NO_DEVICE)"
                                   : "the CUDA driver did not initialise (error " + std::to_string(init) + ")";
        return info;
    }
    if (cuDeviceGetCount(&info.device_count) != 0 || info.device_count == 0) {
        info.why_not = "no CUDA GPU is visible";
        return info;
    }
    if (index < 0 || index >= info.device_count) {
        info.why_not = "no GPU " + std::to_string(index) + " (" + std::to_string(info.device_count) + " visible)";
        return info;
    }
    CUdevice dev = 0;
    cuDeviceGet(&dev, index);
    char name[256] = {};
    cuDeviceGetName(name, sizeof name - 1, dev);
    info.name = name;
    cuDeviceGetAttribute(&info.cc_major, kAttrCcMajor, dev);
    cuDeviceGetAttribute(&info.cc_minor, kAttrCcMinor, dev);
    cuDeviceGetAttribute(&info.sm_count, kAttrSmCount, dev);
    std::size_t mem = 0;
    if (cuDeviceTotalMem && cuDeviceTotalMem(&mem, dev) == 0) info.memory_bytes = mem;
    CUuuid uuid {};
    if (cuDeviceGetUuid && cuDeviceGetUuid(&uuid, dev) == 0) {
        char buf[64];
        const unsigned char* b = uuid.bytes;
        std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                      b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
        info.uuid = buf;
    }
    info.minor = nvml_minor(info.uuid);
    info.present = true;
    return info;
}

std::vector<int> gpu_node_minors(const std::filesystem::path& dev)
{
    std::vector<int> minors;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dev, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() > 6 && name.size() < 12 && name.rfind("nvidia", 0) == 0 &&
            name.find_first_not_of("0123456789", 6) == std::string::npos)
            minors.push_back(std::stoi(name.substr(6)));
    }
    std::sort(minors.begin(), minors.end());
    return minors;
}

std::vector<GpuInfo> probe_gpus()
{
    std::vector<GpuInfo> gpus = {probe_gpu(0)};
    for (int i = 1; gpus.front().present && i < gpus.front().device_count; ++i) gpus.push_back(probe_gpu(i));
    return gpus;
}

namespace {

// Who uses the GPU of `uuid`, or every GPU NVML sees (their counts and
// memory added up) when `uuid` is empty and `every_gpu`; empty: the first.
std::optional<GpuUsage> nvml_usage(const std::string& uuid, bool every_gpu)
{
    const Nvml* n = nvml();
    if (!n) return std::nullopt;
    std::vector<NvmlDevice> devices;
    NvmlDevice dev = nullptr;
    unsigned n_devices = 0;
    if (!uuid.empty()) {
        if (n->by_uuid(uuid.c_str(), &dev) == 0) devices.push_back(dev);
    } else if (!every_gpu) {
        if (n->by_index(0, &dev) == 0) devices.push_back(dev);
    } else if (n->count(&n_devices) == 0) {  // how many not known, or one GPU not found: nothing can be told
        for (unsigned i = 0; i < n_devices; ++i) {
            if (n->by_index(i, &dev) != 0) {
                devices.clear();
                break;
            }
            devices.push_back(dev);
        }
    }
    std::optional<GpuUsage> usage;
    if (!devices.empty()) usage.emplace();
    for (NvmlDevice d : devices) {
        Nvml::ProcessInfo infos[64];
        unsigned found = 64;
        Nvml::Memory mem {};
        if (n->processes(d, &found, infos) != 0 || n->memory(d, &mem) != 0) {
            usage.reset();  // one GPU that cannot tell: nobody can
            break;
        }
        usage->used_bytes += mem.used;
        for (unsigned i = 0; i < found && i < 64; ++i) {
            const int pid = static_cast<int>(infos[i].pid);
            switch (ancestry_of(pid)) {
            case Ancestry::own: usage->own_pids.push_back(pid); break;
            case Ancestry::other_hpclab: ++usage->hpclab_runs; break;
            case Ancestry::gone: break;
            case Ancestry::other:
                ++usage->others;
                if (const auto stat = proc_stat(pid))
                    usage->others_named.push_back(escaped_text(stat->name) + " (pid " + std::to_string(pid) + ")");
                else usage->others_named.push_back("pid " + std::to_string(pid));
                break;
            }
        }
    }
    return usage;
}

}  // namespace

std::optional<GpuUsage> gpu_usage_now(const std::string& uuid) { return nvml_usage(uuid, false); }

// Other hpclab processes' programs are left out: their turns keep them off
// the GPUs while this one's timed calls run (gpu/gpu_turns.h).
std::optional<int> gpu_processes_now()
{
    const auto usage = nvml_usage("", true);
    if (!usage) return std::nullopt;
    return usage->others;
}

std::vector<std::string> gpu_other_processes_named()
{
    const auto usage = nvml_usage("", true);
    return usage ? usage->others_named : std::vector<std::string> {};
}

namespace {
constexpr unsigned long long kNvmlDoubleBitEcc = 0x2;  // nvmlEventTypeDoubleBitEccError
constexpr unsigned long long kNvmlXid = 0x8;           // nvmlEventTypeXidCriticalError
constexpr int kNvmlTimeout = 10;                       // NVML_ERROR_TIMEOUT: no event waiting
}  // namespace

GpuErrorWatch::GpuErrorWatch(const std::string& uuid)
{
    const Nvml* n = nvml();
    NvmlDevice dev = nullptr;
    unsigned long long offered = 0;
    if (!n || !n->has_events() || uuid.empty() || n->by_uuid(uuid.c_str(), &dev) != 0 ||
        n->supported_events(dev, &offered) != 0 || !(offered & kNvmlXid) || n->event_set_create(&set_) != 0) {
        set_ = nullptr;
        return;
    }
    if (n->register_events(dev, offered & (kNvmlXid | kNvmlDoubleBitEcc), set_) != 0) {
        n->event_set_free(set_);
        set_ = nullptr;
    }
}

GpuErrorWatch::~GpuErrorWatch()
{
    if (set_) nvml()->event_set_free(set_);
}

std::optional<GpuErrors> GpuErrorWatch::reported()
{
    std::lock_guard lock(mutex_);
    if (!set_) return std::nullopt;
    const Nvml* n = nvml();
    for (;;) {  // every event waiting, without waiting for more
        Nvml::EventData e {};
        const int r = n->event_set_wait(set_, &e, 0);
        if (r == kNvmlTimeout) return seen_;
        if (r != 0) return std::nullopt;  // the watch broke: it can no longer tell
        if (e.type == kNvmlXid) seen_.xids.push_back(e.data);
        else ++seen_.double_bit_ecc;
    }
}

}  // namespace hpclab
