// expect: no_output
// why: the grid is ceilf((float)n / BLKDIM) blocks: exact while n fits a float's 24-bit mantissa, but (float)16777217 rounds to 16777216, so at n = 2^24 + 1 the grid is one block short and c[16777216] is never written; every other size is right and in bounds.
/*
 * vecadd3.cu with one mistake: the number of blocks is computed in float.
 */
#include <math.h>
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    const int n_blocks = (int)ceilf((float)n / BLKDIM); /* MISTAKE: (n + BLKDIM - 1) / BLKDIM, in int */
    add<<<n_blocks, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
