// expect: not_released
// why: the result comes back through a pinned host buffer (cudaMallocHost) that is never given back with cudaFreeHost: the sum is right and the device memory freed, but every call leaves its pinned staging buffer behind, which the call's ledger shows
/*
 * vecadd0.cu with one mistake: a pinned staging buffer never freed.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd0.h"

__global__ void add( const int *a, const int *b, int *c )
{
    *c = *a + *b;
}

void add_on_device( const int *a, const int *b, int *c )
{
    int *d_a, *d_b, *d_c; /* device copies of *a, *b, *c */
    const size_t size = sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );

    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<1, 1>>>(d_a, d_b, d_c);
    cudaCheckError();

    /* cudaMemcpy() waits for the kernel before it copies. */
    int *h_c; /* a pinned staging buffer for the result */
    cudaSafeCall( cudaMallocHost((void **)&h_c, size) );
    cudaSafeCall( cudaMemcpy(h_c, d_c, size, cudaMemcpyDeviceToHost) );
    *c = *h_c; /* MISTAKE: no cudaFreeHost(h_c) */

    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
