// expect: no_output
// why: index = threadIdx.x + blockIdx.x (blockDim.x forgotten): each block covers only one more element than the one before, so past element 1024 + (number of blocks) nothing is written; every element that is written gets its own a + b, so the answers present are right and in bounds: only the unwritten ones fail (n = 1000003).
/*
 * vecadd3.cu with one mistake: the block's offset is blockIdx.x, not
 * blockIdx.x * blockDim.x.
 */
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x; /* MISTAKE: threadIdx.x + blockIdx.x * blockDim.x */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
