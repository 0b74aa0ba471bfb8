// expect: not_released
// why: the device vectors are allocated before the block-size check, and the refusal returns -1 without freeing them: every refused call (n > 1024) leaves three allocations behind, which the call's ledger shows; the sums of the sizes that fit are right and freed
/*
 * vecadd2.cu with one mistake: the refusal leaves the device vectors allocated.
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
    int dev, max_threads;
    cudaSafeCall( cudaGetDevice(&dev) );
    cudaSafeCall( cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev) );
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    if (n > max_threads) {
        fprintf(stderr,
                "vecadd2: n = %d threads do not fit one block: this GPU allows at most %d threads per block\n",
                n, max_threads);
        return -1; /* MISTAKE: d_a, d_b and d_c are still allocated */
    }
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
