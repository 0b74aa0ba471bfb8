// expect: wrong_answer
// why: a typo adds a[index] + a[index]: every element is written, in bounds, by a correct launch, but holds 2*a[i] instead of a[i] + b[i] (inputs are random in [-1e6, 1e6], so never the poison and never right by chance at every element).
/*
 * vecadd3.cu with one mistake: b is never read.
 */
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + a[index]; /* MISTAKE: a[index] + b[index] */
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
