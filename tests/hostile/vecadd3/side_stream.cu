// expect: pass
// why: launches on a stream of its own and returns without waiting: legitimate CUDA; the harness waits for the whole device before it stops the clock, so the work is in the time and the result is right
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    add<<<(n + 1023) / 1024, 1024, 0, s>>>(d_a, d_b, d_c, n);
    cudaStreamDestroy(s);
}
