// expect: no_output
// why: index = blockIdx.x * threadIdx.x: at n = 100 (one block) every thread writes c[0], so c[1..99] are never written; where an element is written it gets its own a + b and stays in bounds, so the only symptom is the unwritten outputs.
/*
 * vecadd3.cu with one mistake: the index multiplies the block and the
 * thread numbers.
 */
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x * threadIdx.x; /* MISTAKE: threadIdx.x + blockIdx.x * blockDim.x */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
