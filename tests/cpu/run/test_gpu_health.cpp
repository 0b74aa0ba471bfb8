// A GPU taken out of service stays out until a person deletes its mark;
// without a GPU there is nothing to judge.
#include "run/gpu_health.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

using namespace hpclab;
namespace fs = std::filesystem;

TEST_CASE("gpu health: a GPU marked out of service is found by its UUID with why, and no other")
{
    const fs::path dir = fs::temp_directory_path() / ("hpclab-gpus-" + std::to_string(getpid()));
    fs::remove_all(dir);
    GpuInfo broken {.present = true, .name = "Test GPU", .uuid = "GPU-1111"};
    GpuInfo other = broken;
    other.uuid = "GPU-2222";
    CHECK_FALSE(out_of_service(dir, broken));
    take_out_of_service(dir, broken, "the canary kernel failed: it hung");
    const auto why = out_of_service(dir, broken);
    REQUIRE(why);
    CHECK(why->find("canary kernel failed") != std::string::npos);
    CHECK_FALSE(out_of_service(dir, other));
    fs::remove(dir / "GPU-1111");
    CHECK_FALSE(out_of_service(dir, broken));
    fs::remove_all(dir);
}

TEST_CASE("gpu health: with no GPU the runs left nothing to judge, and nothing is blamed")
{
    const GpuHealth h = gpu_health_after(Toolchain::configured(), GpuInfo {}, GpuBaseline {});
    CHECK(h.healthy);
}
