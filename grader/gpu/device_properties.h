// The properties of slide 76's table (deviceQuery's) for one GPU, asked by
// hpclab itself of the CUDA driver: what a program lab's printed table is
// compared with. The driver's attributes are the same numbers the runtime's
// cudaGetDeviceProperties() fills in (the runtime reads them from the
// driver), so they agree to the byte on every GPU.
#pragma once

#include <map>
#include <string>

namespace hpclab {

struct DeviceProperties {
    bool present = false;
    std::string why_not;
    // label (course/program_output.h property_labels) -> the value as the
    // skeleton prints it: "9.0", "81079 MB", "(1024, 1024, 64)".
    std::map<std::string, std::string> values;
};

// Device `index` as the CUDA driver numbers the visible GPUs.
DeviceProperties query_device_properties(int index = 0);

// The table's values from the driver's raw numbers (separate for the tests).
struct RawDeviceNumbers {
    std::string name;
    int cc_major = 0, cc_minor = 0;
    unsigned long long global_bytes = 0;
    int multiprocessors = 0, warp_size = 0;
    int shared_per_block = 0, constant_bytes = 0, max_threads_per_block = 0;
    int block_dims[3] = {0, 0, 0}, grid_dims[3] = {0, 0, 0};
};
std::map<std::string, std::string> property_values(const RawDeviceNumbers& raw);

}  // namespace hpclab
