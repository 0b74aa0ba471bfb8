// hpclab-bench: kind=further tasks=add title="blocks of 1024 threads (vecadd3's layout), copies included"
// hpclab-expect: wrong_launch
/****************************************************************************
 *
 * blocks_of_1024.cu - vecadd1's call with vecadd3's kernel layout
 *
 * The same call as the solution (allocate, copy a and b in, add, copy c
 * back, free), with one change: the kernel runs in blocks of 1024 threads,
 * one element per thread, instead of n blocks of one thread. Its table row
 * against the solution's answers how much of a call the slow layout costs
 * once the copies are counted too. It computes c right, but hpclab check
 * says wrong_launch: its launch is not the lesson's (a test holds it to
 * that verdict).
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "vecadd1.h"

#define BLKDIM 1024

/*
 * Full warps: each of a block's 32 warps loads 32 consecutive ints in one
 * 128-byte request, and a multiprocessor keeps 2048 threads in flight, so
 * the kernel runs near the bandwidth of device memory (vecadd3's version).
 * Here that gain is bounded: the call also copies 12n bytes over the bus,
 * much slower than device memory, and that time does not change.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd1( const int *a, const int *b, int *c, int n )
{
    int *d_a, *d_b, *d_c;
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
