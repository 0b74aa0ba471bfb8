/* vecadd3 - Dee's: a semicolon missing; no hello.cu handed in. */
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x
    if (index < n) c[index] = a[index] + b[index];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
