// expect: wrong_launch
// why: vecadd1's layout (n blocks of 1 thread, index blockIdx.x) instead of one block of n threads: the sums are right, the block-limit check still returns -1 for the too_many sizes and the memory is freed; only the 1 x n launch shape is missing from the trace.
/*
 * vecadd2.cu with one mistake: n blocks of one thread instead of one block
 * of n threads (the kernel indexes by blockIdx.x to match, so the result
 * is right).
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd2.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x; /* MISTAKE: with the launch below; threadIdx.x was asked */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

int vecadd2( const int *a, const int *b, int *c, int n )
{
    int dev, max_threads;
    cudaSafeCall( cudaGetDevice(&dev) );
    cudaSafeCall( cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev) );
    if (n > max_threads) {
        fprintf(stderr,
                "vecadd2: n = %d threads do not fit one block: this GPU allows at most %d threads per block\n",
                n, max_threads);
        return -1;
    }

    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<n, 1>>>(d_a, d_b, d_c, n); /* MISTAKE: <<<1, n>>> was asked */
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
    return 0;
}
