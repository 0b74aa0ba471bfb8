// expect: pass
// why: honest: the three values live in managed memory (cudaMallocManaged), the host writes a and b into it and reads c back after a cudaDeviceSynchronize, and all three are freed: another allocation API, released, must pass the invariant "releases"
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

    cudaSafeCall( cudaMallocManaged((void **)&d_a, size) );
    cudaSafeCall( cudaMallocManaged((void **)&d_b, size) );
    cudaSafeCall( cudaMallocManaged((void **)&d_c, size) );

    *d_a = *a; /* managed memory: the host writes it directly */
    *d_b = *b;

    add<<<1, 1>>>(d_a, d_b, d_c);
    cudaCheckError();

    /* cudaMemcpy() waits for the kernel before it copies. */
    cudaSafeCall( cudaDeviceSynchronize() );
    *c = *d_c;

    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
