// expect: not_on_gpu
// why: the sum is computed on the host (*c = *a + *b) and no kernel is launched: the answer is right and the device memory is freed, but the trace shows no kernel in the call (not_on_gpu outranks the missing <<<1,1>>> launch).
/*
 * vecadd0.cu with one mistake: the memory management is there, but the
 * addition is done by the host instead of by the add kernel.
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

    /* MISTAKE: the host adds; add<<<1, 1>>>(d_a, d_b, d_c) and the copy
       of d_c back into c are missing */
    *c = *a + *b;

    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
