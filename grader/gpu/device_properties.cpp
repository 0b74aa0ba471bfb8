#include "gpu/device_properties.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstddef>

namespace hpclab {

namespace {

// The driver's attribute numbers (cuda.h CUdevice_attribute), declared here
// as gpu/gpu_probe.cpp does, so that hpclab builds without the CUDA headers.
enum Attribute : int {
    kMaxThreadsPerBlock = 1,
    kMaxBlockDimX = 2,
    kMaxGridDimX = 5,
    kMaxSharedPerBlock = 8,
    kTotalConstantMemory = 9,
    kWarpSize = 10,
    kMultiprocessorCount = 16,
    kCcMajor = 75,
    kCcMinor = 76,
};

}  // namespace

std::map<std::string, std::string> property_values(const RawDeviceNumbers& raw)
{
    return {
        {"Device name", raw.name},
        {"CUDA capability", fmt::format("{}.{}", raw.cc_major, raw.cc_minor)},
        {"Global memory", fmt::format("{} MB", raw.global_bytes / (1024 * 1024))},
        {"Multiprocessors", std::to_string(raw.multiprocessors)},
        {"Warp size", std::to_string(raw.warp_size)},
        {"Shared memory per block", fmt::format("{} B", raw.shared_per_block)},
        {"Constant memory", fmt::format("{} B", raw.constant_bytes)},
        {"Max number of threads per block", std::to_string(raw.max_threads_per_block)},
        {"Max size of a thread block",
         fmt::format("({}, {}, {})", raw.block_dims[0], raw.block_dims[1], raw.block_dims[2])},
        {"Max grid size", fmt::format("({}, {}, {})", raw.grid_dims[0], raw.grid_dims[1], raw.grid_dims[2])},
    };
}

DeviceProperties query_device_properties(int index)
{
    DeviceProperties out;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        out.why_not = "no NVIDIA driver is installed (libcuda.so.1 not found)";
        return out;
    }
    using Init = int (*)(unsigned);
    using Get = int (*)(int*, int);
    using Name = int (*)(char*, int, int);
    using Attr = int (*)(int*, int, int);
    using Mem = int (*)(std::size_t*, int);
    const auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"));
    const auto get = reinterpret_cast<Get>(dlsym(lib, "cuDeviceGet"));
    const auto name = reinterpret_cast<Name>(dlsym(lib, "cuDeviceGetName"));
    const auto attr = reinterpret_cast<Attr>(dlsym(lib, "cuDeviceGetAttribute"));
    const auto mem = reinterpret_cast<Mem>(dlsym(lib, "cuDeviceTotalMem_v2"));
    int dev = 0;
    if (!init || !get || !name || !attr || !mem || init(0) != 0 || get(&dev, index) != 0) {
        out.why_not = fmt::format("the CUDA driver cannot open GPU {}", index);
        return out;
    }
    RawDeviceNumbers raw;
    char text[256] = {};
    std::size_t bytes = 0;
    bool ok = name(text, sizeof text - 1, dev) == 0 && mem(&bytes, dev) == 0;
    const auto read = [&](int& value, int attribute) { ok = ok && attr(&value, attribute, dev) == 0; };
    read(raw.cc_major, kCcMajor);
    read(raw.cc_minor, kCcMinor);
    read(raw.multiprocessors, kMultiprocessorCount);
    read(raw.warp_size, kWarpSize);
    read(raw.shared_per_block, kMaxSharedPerBlock);
    read(raw.constant_bytes, kTotalConstantMemory);
    read(raw.max_threads_per_block, kMaxThreadsPerBlock);
    for (int d = 0; d < 3; ++d) {
        read(raw.block_dims[d], kMaxBlockDimX + d);
        read(raw.grid_dims[d], kMaxGridDimX + d);
    }
    if (!ok) {
        out.why_not = fmt::format("the CUDA driver did not answer every property of GPU {}", index);
        return out;
    }
    raw.name = text;
    raw.global_bytes = bytes;
    out.values = property_values(raw);
    out.present = true;
    return out;
}

}  // namespace hpclab
