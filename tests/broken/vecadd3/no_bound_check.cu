// expect: memcheck
// why: no "if (index < n)": the last block's extra threads write c[n..] (and read a, b) past the end, into the guard zone in the normal runs (out_of_bounds), and memcheck reports the invalid write at n = 1 or 100; the sanitizer finding names the cause, so it wins.
/*
 * vecadd3.cu with one mistake: the bound check is missing.
 */
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    /* MISTAKE: no "if (index < n)" */
    c[index] = a[index] + b[index];
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
