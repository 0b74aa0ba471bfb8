// expect: wrong_launch
// why: the vecadd3 layout (blocks of 1024 threads, global index, bound check) instead of n blocks of 1 thread: every element is right and the memory is managed and freed, only the launch shape the lesson asks for (n x 1) is absent from the trace.
/*
 * vecadd1.cu with one mistake: the kernel is launched with blocks of 1024
 * threads (correctly indexed), not with n blocks of one thread.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* MISTAKE: the lesson asks for index = blockIdx.x, one thread per block */
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd1( const int *a, const int *b, int *c, int n )
{
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n); /* MISTAKE: <<<n, 1>>> */
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
