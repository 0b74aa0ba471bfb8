// expect: pass
// why: honest: a stream of its own, the device vectors from cudaMallocAsync on it, the copies and the kernel queued on it, cudaFreeAsync, a wait, and the stream destroyed: stream-ordered allocation, released in the call, must pass the invariant "releases"
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

    cudaStream_t s;
    cudaSafeCall( cudaStreamCreate(&s) );
    cudaSafeCall( cudaMallocAsync((void **)&d_a, size, s) );
    cudaSafeCall( cudaMallocAsync((void **)&d_b, size, s) );
    cudaSafeCall( cudaMallocAsync((void **)&d_c, size, s) );
    cudaSafeCall( cudaMemcpyAsync(d_a, a, size, cudaMemcpyHostToDevice, s) );
    cudaSafeCall( cudaMemcpyAsync(d_b, b, size, cudaMemcpyHostToDevice, s) );

    add<<<n, 1, 0, s>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpyAsync(c, d_c, size, cudaMemcpyDeviceToHost, s) );
    cudaSafeCall( cudaFreeAsync(d_a, s) );
    cudaSafeCall( cudaFreeAsync(d_b, s) );
    cudaSafeCall( cudaFreeAsync(d_c, s) );
    cudaSafeCall( cudaStreamSynchronize(s) );
    cudaSafeCall( cudaStreamDestroy(s) );
}
