// expect: too_slow
// profile: lanes_per_warp
// why: vecadd1's layout, n blocks of ONE thread: the index formula still gives blockIdx.x, so every element is right and in bounds, but 31 of 32 lanes of each warp idle and few loads are in flight: about 100x slower than the reference, far below the threshold.
/*
 * vecadd3.cu with one mistake: blocks of one thread.
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
    add<<<n, 1>>>(d_a, d_b, d_c, n); /* MISTAKE: <<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>> */
    cudaCheckError();
}
