// expect: cuda_error
// why: n / BLKDIM blocks (rounded down): for n = 1 and n = 100 that is a grid of 0 blocks, an invalid launch configuration that the student's cudaCheckError() stops on (status 99); this outranks the unwritten tail at n = 1000003 (no_output).
/*
 * vecadd3.cu with one mistake: the number of blocks is rounded down.
 */
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
    add<<<n / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n); /* MISTAKE: (n + BLKDIM - 1) / BLKDIM */
    cudaCheckError();
}
