/* vecadd3 - Ada's: one thread per element, 256 threads per block. */
#include "hpc.h"
#include "vecadd3.h"

#define THREADS 256

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    add<<<blocks, THREADS>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
