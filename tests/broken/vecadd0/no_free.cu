// expect: not_released
// why: the three cudaFree() are missing: the sum is right and computed by add<<<1,1>>>, but the call leaves its device memory allocated, which only the cudaMalloc/cudaFree trace can tell.
/*
 * vecadd0.cu with one mistake: the device copies are never freed.
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

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );

    /* MISTAKE: no cudaFree(d_a), cudaFree(d_b), cudaFree(d_c) */
}
