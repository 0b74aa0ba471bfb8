// A stand-in fault for hpclab grade --gpus (issue 15; scripts/gpu-suite.sh,
// part gpus): takes every byte of device memory it can get on the GPU it
// sees, and keeps taking what frees up, for `seconds`. On that GPU no new
// program gets a context: the lab programs started there fail, and so does
// hpclab's canary after the wave, twice, which takes the GPU out of service.
//   CUDA_VISIBLE_DEVICES=1 gpu-fault 240
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? std::atof(argv[1]) : 240;
    if (cudaFree(nullptr) != cudaSuccess) {
        std::printf("gpu-fault: no context\n");
        return 1;
    }
    std::vector<void *> held;
    std::size_t held_bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    double reported = -10;
    for (;;) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed >= seconds) break;
        for (std::size_t chunk : {std::size_t(1) << 30, std::size_t(64) << 20, std::size_t(2) << 20}) {
            void *p = nullptr;
            while (cudaMalloc(&p, chunk) == cudaSuccess) {
                held.push_back(p);
                held_bytes += chunk;
            }
            cudaGetLastError();  // an allocation that failed leaves no sticky error; cleared anyway
        }
        if (elapsed - reported >= 10) {
            std::size_t free_bytes = 0, total = 0;
            cudaMemGetInfo(&free_bytes, &total);
            std::printf("gpu-fault: %.0f s: holding %.2f GB, %.3f GB free of %.1f\n", elapsed, held_bytes / 1e9,
                        free_bytes / 1e9, total / 1e9);
            std::fflush(stdout);
            reported = elapsed;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (void *p : held) cudaFree(p);
    std::printf("gpu-fault: released %.2f GB after %.0f s\n", held_bytes / 1e9, seconds);
    return 0;
}
