/****************************************************************************
 *
 * vecadd1.cu - Vector addition with n blocks of one thread
 *
 * Based on the course's cuda-vecadd1.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * vecadd0 ran the kernel once: add<<<1, 1>>>. A launch
 *
 *     add<<<n, 1>>>( ... );
 *
 * runs it n times in parallel, as n blocks of one thread each. Each
 * block finds out which one it is from blockIdx.x (0, 1, ..., n - 1), so
 * block i can add the elements a[i] and b[i]: n blocks add two vectors of
 * n elements.
 *
 * The memory management is the same as in vecadd0, for n ints instead of
 * one, and is given below: your part is the kernel and its launch.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run vecadd1
 *     hpclab run vecadd1 --n 1000       (any other size)
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* TODO 1: this block adds the element whose index is the block's
       number, blockIdx.x. If that index is inside the vectors (< n),
       store c[index] = a[index] + b[index]. */
}

void vecadd1( const int *a, const int *b, int *c, int n )
{
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    /* Room on the device, and the inputs copied there */
    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    /* TODO 2: launch add with n blocks of ONE thread each. One block of
       one thread, as below, adds at most one element. */
    add<<<1, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    /* The result back to the host, and the device memory freed */
    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
