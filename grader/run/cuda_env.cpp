#include "run/cuda_env.h"

namespace hpclab {

std::vector<std::pair<std::string, std::string>> cuda_env(const std::string& gpu_uuid)
{
    std::vector<std::pair<std::string, std::string>> env = {{"CUDA_DEVICE_MAX_CONNECTIONS", "1"}};
    if (!gpu_uuid.empty()) env.emplace_back("CUDA_VISIBLE_DEVICES", gpu_uuid);
    return env;
}

}  // namespace hpclab
