// expect: cuda_error
// why: no check of n against the GPU's maximum threads per block: the add sizes (n <= 1024) pass, but for n = 1025, 2000, 100000 the launch <<<1, n>>> fails (invalid configuration) and the student's own cudaCheckError() stops the program with status 99.
/*
 * vecadd2.cu with one mistake: it never asks the GPU how many threads a
 * block may hold, and launches one block of n threads whatever n is.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd2.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

int vecadd2( const int *a, const int *b, int *c, int n )
{
    /* MISTAKE: no cudaDeviceGetAttribute(..., cudaDevAttrMaxThreadsPerBlock, ...)
       and no "if (n > max_threads) { message; return -1; }" */
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<1, n>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
    return 0;
}
