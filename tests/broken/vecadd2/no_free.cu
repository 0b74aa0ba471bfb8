// expect: not_released
// why: the three cudaFree() are missing: every sum is right and computed by add<<<1, n>>>, and too_many still refuses; but each call of add leaves its device memory allocated, which only the cudaMalloc/cudaFree trace can tell.
/*
 * vecadd2.cu with one mistake: the device copies are never freed.
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
    /* MISTAKE: no cudaFree(d_a), cudaFree(d_b), cudaFree(d_c) */
    return 0;
}
