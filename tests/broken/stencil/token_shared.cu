// expect: no_shared_memory
// why: the plain global-memory stencil beside one token __shared__ int (the block's first index, written by thread 0 and read after a barrier): every output is right, in bounds, race-free, and the kernel does use shared memory, 4 B of it; but the lesson's cache of BLKDIM + 2*RADIUS ints needs 4120 B for a block of 1024 threads, so the cache-size rule (4 B per thread plus 24 B of halo) fails.
/*
 * stencil.cu with one mistake: shared memory in name only: one __shared__ int, the inputs read from global memory.
 */
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    /* MISTAKE: the block's BLKDIM + 2*RADIUS inputs belong in a __shared__ cache; only the block's first index is shared */
    __shared__ int first;
    int result = 0, offset;

    if (threadIdx.x == 0) {
        first = blockIdx.x * blockDim.x;
    }
    __syncthreads();
    const int gindex = threadIdx.x + first;
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
