// expect: not_released
// why: the three cudaFree() are missing: every sum is right and computed by add<<<n, 1>>>, but each call leaves 3n ints of device memory allocated, which only the cudaMalloc/cudaFree trace can tell.
/*
 * vecadd1.cu with one mistake: the device copies are never freed.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x;
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

    add<<<n, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    /* MISTAKE: no cudaFree(d_a), cudaFree(d_b), cudaFree(d_c) */
}
