// expect: pass
// why: an honest, unusual program: the host times read with C11's timespec_get, a clock hpclab has no name for, where the course uses hpc_gettime(); the launches behind a helper, the events in an array: every number is measured and right, so it must pass (the host times are held to hpclab's own measurements, not to the clock's name)
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hpc.h"
#include "work.h"

/* C11's wall clock, in seconds: HONEST, UNUSUAL (not hpc_gettime()) */
static double now_s( void )
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_limits( void )
{
    cudaDeviceProp p;
    cudaSafeCall( cudaGetDeviceProperties(&p, 0) );
    printf("Device name: %s\n", p.name);
    printf("CUDA capability: %d.%d\n", p.major, p.minor);
    printf("Global memory: %llu MB\n", (unsigned long long)(p.totalGlobalMem >> 20));
    printf("Multiprocessors: %d\n", p.multiProcessorCount);
    printf("Warp size: %d\n", p.warpSize);
    printf("Shared memory per block: %llu B\n", (unsigned long long)p.sharedMemPerBlock);
    printf("Constant memory: %llu B\n", (unsigned long long)p.totalConstMem);
    printf("Max number of threads per block: %d\n", p.maxThreadsPerBlock);
    printf("Max size of a thread block: (%d, %d, %d)\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
    printf("Max grid size: (%d, %d, %d)\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
}

/* One launch of the given kernel over all of x; it returns at once. */
static void launch( float *d_x )
{
    work<<<(WORK_N + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
}

int main( void )
{
    float *d_x = NULL;
    cudaEvent_t ev[2];
    float ms = 0;
    double t0;

    print_limits();
    cudaSafeCall( cudaMalloc((void **)&d_x, WORK_N * sizeof(*d_x)) );
    cudaSafeCall( cudaMemset(d_x, 0, WORK_N * sizeof(*d_x)) );
    launch(d_x);            /* loads the kernel: not timed */
    cudaCheckError();

    t0 = now_s();
    launch(d_x);
    const double t_launch = now_s() - t0;
    cudaCheckError();

    t0 = now_s();
    launch(d_x);
    cudaSafeCall( cudaDeviceSynchronize() );
    const double t_sync = now_s() - t0;
    cudaCheckError();

    for (int e = 0; e < 2; e++) cudaSafeCall( cudaEventCreate(&ev[e]) );
    cudaSafeCall( cudaEventRecord(ev[0]) );
    launch(d_x);
    cudaSafeCall( cudaEventRecord(ev[1]) );
    cudaSafeCall( cudaEventSynchronize(ev[1]) );
    cudaSafeCall( cudaEventElapsedTime(&ms, ev[0], ev[1]) );
    for (int e = 0; e < 2; e++) cudaSafeCall( cudaEventDestroy(ev[e]) );

    printf("Time without synchronization: %.6f s\n", t_launch);
    printf("Time with cudaDeviceSynchronize: %.6f s\n", t_sync);
    printf("Time with CUDA events: %.3f ms\n", ms);
    printf("Throughput: %.1f Gflops\n", WORK_FLOPS / t_sync / 1e9);

    cudaSafeCall( cudaFree(d_x) );
    return EXIT_SUCCESS;
}
