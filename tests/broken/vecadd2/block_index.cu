// expect: wrong_answer
// why: index = blockIdx.x in a one block of n threads: every thread has index 0, so only c[0] is computed; the copy back brings the rest of d_c as the GPU left it (zeros from a fresh cudaMalloc, seen on the H200), so c[1] is a wrong value, not hpclab's poison; nothing out of bounds, the launch shape is the lesson's.
/*
 * vecadd2.cu with one mistake: the index is the block's, in a single block.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd2.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x; /* MISTAKE: threadIdx.x (one block of n threads) */
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

    add<<<1, n>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
    return 0;
}
