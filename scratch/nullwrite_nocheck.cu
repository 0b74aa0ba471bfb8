#include "hpc.h"
#include "vecadd3.h"
#include <stdlib.h>
#define BLKDIM 1024
__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    int *p = 0; p[index] = 1;
}
void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
}
