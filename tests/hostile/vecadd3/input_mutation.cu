// expect: input_modified
// why: adds b into a in place and copies a to c: right outputs, but an input was written
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) { a[i] += b[i]; c[i] = a[i]; }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>((int *)d_a, d_b, d_c, n);
    cudaCheckError();
}
