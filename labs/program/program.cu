/****************************************************************************
 *
 * program.cu - A program of your own: query the GPU, time a kernel
 *
 * After the course's slides 19-23 (nvcc and main), 66 (timing a kernel
 * with hpc_gettime() and cudaDeviceSynchronize()) and 76 (the limits of
 * the lab machine, as deviceQuery prints them) (Moreno Marzolla, "CUDA
 * Programming").
 *
 * In the other labs hpclab calls your functions. Here you write main():
 * the whole program, as you would compile it yourself with
 *
 *     nvcc -I../../common program.cu -o program
 *
 * It does two things:
 *
 *   1. it asks the CUDA runtime what GPU it runs on and prints the table
 *      of slide 76 (cudaGetDeviceProperties());
 *   2. it times the kernel of work.h (given) three ways: with hpc_gettime()
 *      alone, with hpc_gettime() and cudaDeviceSynchronize(), and with CUDA
 *      events. A launch returns before the kernel ends: the first time is
 *      that of the launch, not of the kernel.
 *
 * Keep the printf formats as they are: hpclab reads these lines, compares
 * the properties with its own query of the GPU and the times with its own
 * measurement of the same kernel.
 *
 * Run it (builds it, runs it, compares what it prints):
 *
 *     hpclab check program
 *
 ****************************************************************************/
#include <stdio.h>
#include <string.h>
#include "hpc.h"
#include "work.h"

int main( void )
{
    cudaDeviceProp prop;
    memset(&prop, 0, sizeof(prop));

    /* TODO 1: fill prop with the properties of device 0
       (cudaGetDeviceProperties), inside cudaSafeCall(). */

    /* TODO 2: replace each 0 below with the field of prop that the line
       prints (their names are in cuda_runtime_api.h, struct cudaDeviceProp:
       major, minor, totalGlobalMem, ...). Global memory in MB: bytes / (1024 * 1024). */
    printf("Device name: %s\n", prop.name);
    printf("CUDA capability: %d.%d\n", 0, 0);
    printf("Global memory: %llu MB\n", 0ull);
    printf("Multiprocessors: %d\n", 0);
    printf("Warp size: %d\n", 0);
    printf("Shared memory per block: %llu B\n", 0ull);
    printf("Constant memory: %llu B\n", 0ull);
    printf("Max number of threads per block: %d\n", 0);
    printf("Max size of a thread block: (%d, %d, %d)\n", 0, 0, 0);
    printf("Max grid size: (%d, %d, %d)\n", 0, 0, 0);

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

    /* TODO 3: time one launch of the same kernel with hpc_gettime() alone:
       tstart just before the launch, tend just after it. No
       cudaDeviceSynchronize() and no cudaCheckError() in between (that
       one synchronizes too). */
    const double t_launch = tend - tstart;
    cudaCheckError(); /* waits for that launch before the next one */

    /* TODO 4: time one more launch as on slide 66: hpc_gettime(), the
       launch, cudaDeviceSynchronize(), hpc_gettime(). */
    const double t_sync = tend - tstart;
    cudaCheckError();

    float ms = 0;
    /* TODO 5: time one more launch with CUDA events: cudaEventCreate() two
       events (start, stop), cudaEventRecord(start), the launch,
       cudaEventRecord(stop), cudaEventSynchronize(stop) (the record only
       queues the event: wait for it), cudaEventElapsedTime(&ms, start,
       stop), then cudaEventDestroy() both. Each call inside cudaSafeCall(). */

    printf("Time without synchronization: %.6f s\n", t_launch);
    printf("Time with cudaDeviceSynchronize: %.6f s\n", t_sync);
    printf("Time with CUDA events: %.3f ms\n", ms);
    if (t_sync > 0) printf("Throughput: %.1f Gflops\n", WORK_FLOPS / t_sync / 1e9);

    cudaSafeCall( cudaFree(d_x) );
    return EXIT_SUCCESS;
}
