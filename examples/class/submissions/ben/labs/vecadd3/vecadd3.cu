/* vecadd3 - Ben's, handed in as a copy of labs/: a typo adds a to itself. */
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + a[index];
    }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
