// expect: cuda_error
// why: no cudaEventSynchronize(stop): cudaEventElapsedTime() is asked while the 8 ms kernel still runs, returns cudaErrorNotReady, and cudaSafeCall stops the program with status 99.
/*
 * program.cu with one mistake: the stop event is never waited for
 */
#include <stdio.h>
#include <string.h>
#include "hpc.h"
#include "work.h"

int main( void )
{
    cudaDeviceProp prop;
    memset(&prop, 0, sizeof(prop));

    /* The runtime fills the whole struct in one call. */
    cudaSafeCall( cudaGetDeviceProperties(&prop, 0) );

    printf("Device name: %s\n", prop.name);
    printf("CUDA capability: %d.%d\n", prop.major, prop.minor);
    printf("Global memory: %llu MB\n", (unsigned long long)(prop.totalGlobalMem / (1024 * 1024)));
    printf("Multiprocessors: %d\n", prop.multiProcessorCount);
    printf("Warp size: %d\n", prop.warpSize);
    printf("Shared memory per block: %llu B\n", (unsigned long long)prop.sharedMemPerBlock);
    printf("Constant memory: %llu B\n", (unsigned long long)prop.totalConstMem);
    printf("Max number of threads per block: %d\n", prop.maxThreadsPerBlock);
    printf("Max size of a thread block: (%d, %d, %d)\n",
           prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    printf("Max grid size: (%d, %d, %d)\n", prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]);

    float *d_x = NULL;
    const size_t size = WORK_N * sizeof(float);
    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMemset(d_x, 0, size) );
    const int blocks = (WORK_N + BLKDIM - 1) / BLKDIM;

    /* A first launch, not timed: the first launch of a program also loads
       the kernel onto the GPU. cudaCheckError() waits for it to end. */
    work<<<blocks, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
    cudaCheckError();

    double tstart = 0, tend = 0;

    /* The launch only queues the kernel: tend - tstart is the launch's
       cost, microseconds, whatever the kernel does. */
    tstart = hpc_gettime();
    work<<<blocks, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
    tend = hpc_gettime();
    const double t_launch = tend - tstart;
    cudaCheckError(); /* waits for that launch before the next one */

    /* Slide 66: wait for the kernel before reading the clock. */
    tstart = hpc_gettime();
    work<<<blocks, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
    cudaSafeCall( cudaDeviceSynchronize() );
    tend = hpc_gettime();
    const double t_sync = tend - tstart;
    cudaCheckError();

    float ms = 0;
    /* The GPU stamps each event when the stream reaches it: the time
       between them is the kernel's, measured on the GPU, once stop has
       happened (cudaEventSynchronize waits for it). */
    cudaEvent_t start, stop;
    cudaSafeCall( cudaEventCreate(&start) );
    cudaSafeCall( cudaEventCreate(&stop) );
    cudaSafeCall( cudaEventRecord(start) );
    work<<<blocks, BLKDIM>>>(d_x, WORK_N, WORK_STEPS);
    cudaSafeCall( cudaEventRecord(stop) );
    /* MISTAKE: no cudaEventSynchronize(stop) */
    cudaSafeCall( cudaEventElapsedTime(&ms, start, stop) );
    cudaSafeCall( cudaEventDestroy(start) );
    cudaSafeCall( cudaEventDestroy(stop) );

    printf("Time without synchronization: %.6f s\n", t_launch);
    printf("Time with cudaDeviceSynchronize: %.6f s\n", t_sync);
    printf("Time with CUDA events: %.3f ms\n", ms);
    if (t_sync > 0) printf("Throughput: %.1f Gflops\n", WORK_FLOPS / t_sync / 1e9);

    cudaSafeCall( cudaFree(d_x) );
    return EXIT_SUCCESS;
}
