// expect: crash
// why: dereferences a device pointer on the host
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    volatile int x = d_a[0];
    (void)x;
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
