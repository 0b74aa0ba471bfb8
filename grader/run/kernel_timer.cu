// hpclab's own timing of a program lab's kernel: built by hpclab from the
// lab's kernel header (lab.json "program.kernel_header", -DKERNEL_HEADER),
// the same file the student's program includes, never from the student's
// file. It times the kernel the three ways the lab asks for, each several
// times after a warm-up launch, and prints the medians in the lab's own
// format (course/program_output.h), which hpclab reads as it reads the
// student's. The kernel header defines work(), WORK_N, WORK_STEPS and BLKDIM.
#include "hpc.h"

#include <algorithm>
#include <cstdio>

#define HPCLAB_STRING2(x) #x
#define HPCLAB_STRING(x) HPCLAB_STRING2(x)
#include HPCLAB_STRING(KERNEL_HEADER)

namespace {

constexpr int kReps = 5;

double median(double* t)
{
    std::sort(t, t + kReps);
    return t[kReps / 2];
}

void launch(float* d_x)
{
    work<<<(WORK_N + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
}

}  // namespace

int main()
{
    float* d_x = nullptr;
    cudaSafeCall(cudaMalloc((void**)&d_x, WORK_N * sizeof(float)));
    cudaSafeCall(cudaMemset(d_x, 0, WORK_N * sizeof(float)));
    launch(d_x);  // loads the kernel, wakes the GPU's clocks
    cudaCheckError();
    cudaEvent_t start, stop;
    cudaSafeCall(cudaEventCreate(&start));
    cudaSafeCall(cudaEventCreate(&stop));
    double launch_s[kReps], sync_s[kReps], events_s[kReps];
    for (int r = 0; r < kReps; ++r) {
        double t0 = hpc_gettime();
        launch(d_x);
        launch_s[r] = hpc_gettime() - t0;
        cudaCheckError();
        t0 = hpc_gettime();
        launch(d_x);
        cudaSafeCall(cudaDeviceSynchronize());
        sync_s[r] = hpc_gettime() - t0;
        cudaSafeCall(cudaEventRecord(start));
        launch(d_x);
        cudaSafeCall(cudaEventRecord(stop));
        cudaSafeCall(cudaEventSynchronize(stop));
        float ms = 0;
        cudaSafeCall(cudaEventElapsedTime(&ms, start, stop));
        events_s[r] = ms / 1e3;
    }
    std::printf("Time without synchronization: %.9f s\n", median(launch_s));
    std::printf("Time with cudaDeviceSynchronize: %.9f s\n", median(sync_s));
    std::printf("Time with CUDA events: %.9f s\n", median(events_s));
    cudaSafeCall(cudaEventDestroy(start));
    cudaSafeCall(cudaEventDestroy(stop));
    cudaSafeCall(cudaFree(d_x));
    return 0;
}
