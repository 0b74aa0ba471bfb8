// How long CUDA contexts take when many processes make them at once (the
// pace of a class's grading: see docs/instructors.md). Each process makes its
// context, optionally allocates and copies, and exits; scripts/ctx-cost.sh
// starts N of them together and times the lot. And (modes 3 and 4) whether a
// context's end takes longer with other processes' idle contexts on the GPU:
// in a class the timed programs' ends take two to three times one alone
// (docs/results/class-time-h200.txt, calls 13a-13c), while other checks'
// timed programs wait at their gates with their contexts made.
//   ctx-cost <mode>   mode 0: cuInit only; 1: cudaFree(0); 2: + 64 MB malloc, memset, free
//                     3: hold: a context and 256 MB, "ready" on stdout, idle until stdin ends
//                     4: end: a context, 1 GiB on the device and 256 MB pinned on the host
//                        copied in, then cudaDeviceReset timed ("reset <ms>") and the moment
//                        before the exit ("exiting at <ms>", CLOCK_MONOTONIC)
//                     5: the same, ended as the harness ends (no reset: the runtime's own
//                        teardown at exit), "exiting at <ms>" before it
//                     6: the same, then "ready" and a wait for SIGKILL (the end a parent
//                        gives it: no teardown in the process at all)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
namespace {

double monotonic_ms()
{
    timespec t {};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int hold()
{
    void* p = nullptr;
    if (cudaMalloc(&p, 256 << 20) != cudaSuccess || cudaMemset(p, 1, 256 << 20) != cudaSuccess) return 1;
    cudaDeviceSynchronize();
    std::printf("ready\n");
    std::fflush(stdout);
    while (std::getchar() != EOF) {
    }
    return 0;
}

// A context with 1 GiB on the device and 256 MB pinned on the host, copied in.
bool fill()
{
    const size_t device_bytes = size_t(1) << 30, host_bytes = size_t(256) << 20;
    void *d = nullptr, *h = nullptr;
    if (cudaMalloc(&d, device_bytes) != cudaSuccess || cudaHostAlloc(&h, host_bytes, cudaHostAllocDefault) != cudaSuccess)
        return false;
    std::memset(h, 1, host_bytes);
    cudaMemcpy(d, h, host_bytes, cudaMemcpyHostToDevice);
    cudaMemset(d, 2, device_bytes);
    return cudaDeviceSynchronize() == cudaSuccess;
}

int end(int mode)
{
    if (!fill()) return 1;
    if (mode == 6) {
        std::printf("ready\n");
        std::fflush(stdout);
        for (;;) pause();
    }
    if (mode == 4) {
        const double t0 = monotonic_ms();
        cudaDeviceReset();
        std::printf("reset %.1f\n", monotonic_ms() - t0);
    }
    std::printf("exiting at %.3f\n", monotonic_ms());
    std::fflush(stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const int mode = argc > 1 ? std::atoi(argv[1]) : 1;
    if (mode == 0) return cuInit(0) == CUDA_SUCCESS ? 0 : 1;
    if (cudaFree(nullptr) != cudaSuccess) return 1;
    if (mode == 3) return hold();
    if (mode >= 4) return end(mode);
    if (mode >= 2) {
        void* p = nullptr;
        if (cudaMalloc(&p, 64 << 20) != cudaSuccess) return 1;
        cudaMemset(p, 1, 64 << 20);
        cudaDeviceSynchronize();
        cudaFree(p);
    }
    return 0;
}
