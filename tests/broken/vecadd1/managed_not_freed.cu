// expect: not_released
// why: the device vectors come from cudaMallocManaged (memory the host and the device both reach) and only d_c is freed: every call leaves two managed allocations behind, which the call's ledger shows
/*
 * vecadd1.cu with one mistake: managed memory, two of its three allocations never freed.
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

    cudaSafeCall( cudaMallocManaged((void **)&d_a, size) );
    cudaSafeCall( cudaMallocManaged((void **)&d_b, size) );
    cudaSafeCall( cudaMallocManaged((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<n, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_c) ); /* MISTAKE: d_a and d_b are never freed */
}
