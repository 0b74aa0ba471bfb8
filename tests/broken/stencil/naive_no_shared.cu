// expect: no_shared_memory
// why: the plain stencil (cuda-stencil1d) where the shared-memory cache is asked: every output is right, in bounds, with no barrier to miss, and on a recent GPU it is not even slower; only the technique check (no static or dynamic shared memory in the kernel) fails.
/*
 * stencil.cu with one mistake: each thread reads its 2*RADIUS+1 inputs
 * from global memory; there is no shared-memory cache.
 */
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

/* MISTAKE: the task asks for the inputs to go through a __shared__ cache */
__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int result = 0, offset;

    if (gindex < n) {
        for (offset = 0; offset <= 2 * RADIUS; offset++) {
            result += in[gindex + offset];
        }
        out[gindex] = result;
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
