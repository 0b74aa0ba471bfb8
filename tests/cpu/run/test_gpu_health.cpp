// A GPU taken out of service stays out until a person deletes its mark;
// without a GPU there is nothing to judge.
#include "run/gpu_health.h"
#include "process/process.h"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
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

TEST_CASE("gpu health: a canary that fails once, then passes once the GPU is quiet, leaves the GPU in service")
{
    std::vector<double> limits;
    int waits = 0;
    const auto hung_then_ok = [&](double limit_s) {
        limits.push_back(limit_s);
        return limits.size() == 1 ? std::string("it hung") : std::string();
    };
    const GpuHealth h = canary_health(hung_then_ok, [&] { ++waits; });
    CHECK(h.healthy);
    CHECK(waits == 1);
    REQUIRE(limits.size() == 2);
    CHECK(limits[1] > limits[0]);  // the second try waits longer
}

TEST_CASE("gpu health: a canary that fails twice takes the GPU out, with the second failure's words")
{
    int runs = 0;
    const auto wrong = [&](double) { return ++runs == 1 ? std::string("it hung") : std::string("canary: wrong result at 7\n"); };
    const GpuHealth h = canary_health(wrong, [] {});
    CHECK_FALSE(h.healthy);
    CHECK(runs == 2);
    CHECK(h.why.find("failed twice") != std::string::npos);
    CHECK(h.why.find("wrong result at 7") != std::string::npos);
}

TEST_CASE("gpu health: a canary that passes at once is run once, with no wait")
{
    int runs = 0, waits = 0;
    const GpuHealth h = canary_health([&](double) { ++runs; return std::string(); }, [&] { ++waits; });
    CHECK(h.healthy);
    CHECK(runs == 1);
    CHECK(waits == 0);
}

TEST_CASE("gpu health: the canary runs where the driver reported an error, a program was stopped, or nothing can tell")
{
    const auto xids = [](std::vector<unsigned long long> x) { return std::optional<GpuErrors>(GpuErrors {.xids = x}); };
    CHECK(reason_for_canary(GpuErrors {}, 0).empty());  // a quiet driver, every program ended by itself
    CHECK(reason_for_canary(std::nullopt, 0).find("cannot be watched") != std::string::npos);
    // A program's faults in its own context: the program's, not the GPU's.
    CHECK(reason_for_canary(xids({31, 43, 13, 43}), 0).empty());
    CHECK(reason_for_canary(xids({31, 79}), 0) == "the driver reported Xid 79");
    CHECK(reason_for_canary(xids({45, 48}), 0) == "the driver reported Xid 45, Xid 48");
    CHECK(reason_for_canary(GpuErrors {.double_bit_ecc = 2}, 0) == "the driver reported 2 double-bit ECC error(s)");
    CHECK(reason_for_canary(xids({43}), 1).find("1 program(s)") != std::string::npos);
    CHECK(reason_for_canary(xids({119}), 3).find("Xid 119") != std::string::npos);
}

TEST_CASE("gpu health: a program killed at its limit or by a signal counts as stopped, and one that exits with any code does not")
{
    const auto run = [](std::vector<std::string> argv, double limit_s) {
        ProcessSpec spec;
        spec.argv = std::move(argv);
        spec.wall_limit_s = limit_s;
        return run_process(spec);
    };
    std::uint64_t before = programs_stopped();
    CHECK(run({"/bin/sh", "-c", "exit 3"}, 10).exit_code == 3);
    CHECK(run({"/bin/true"}, 10).exited());
    CHECK(programs_stopped() == before);
    CHECK(run({"/bin/sleep", "10"}, 0.2).timed_out);
    CHECK(programs_stopped() == before + 1);
    CHECK(run({"/bin/sh", "-c", "kill -KILL $$"}, 10).signal == SIGKILL);
    CHECK(programs_stopped() == before + 2);
}

TEST_CASE("gpu health: without a GPU or NVML the driver's errors cannot be told, and the baseline watches nothing")
{
    GpuErrorWatch nowhere("GPU-00000000-0000-0000-0000-000000000000");
    CHECK_FALSE(nowhere.reported());
    CHECK_FALSE(gpu_baseline(GpuInfo {}).errors);
}

TEST_CASE("gpu health: HPCLAB_PROFILE=canary watches nothing, so that the canary runs after every check (an A/B)")
{
    const GpuInfo gpu {.present = true, .name = "Test GPU", .uuid = "GPU-00000000-0000-0000-0000-000000000000"};
    unsetenv("HPCLAB_PROFILE");
    CHECK(gpu_baseline(gpu).errors);  // made, though here it cannot tell
    setenv("HPCLAB_PROFILE", "canary", 1);
    CHECK_FALSE(gpu_baseline(gpu).errors);
    unsetenv("HPCLAB_PROFILE");
}
