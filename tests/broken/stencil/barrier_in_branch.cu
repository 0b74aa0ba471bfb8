// expect: race
// why: the __syncthreads() is written inside the branch that loads the halo, so only threads 0..RADIUS-1 reach it (undefined behaviour: a barrier must be reached by every thread of the block or none); the other threads read their neighbours' and the halo's slots with no barrier after the writes, and racecheck reports the shared-memory hazard at the small sizes.
/*
 * stencil.cu with one mistake: the barrier inside the halo's branch.
 */
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    __shared__ int temp[BLKDIM + 2 * RADIUS];
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    const int lindex = threadIdx.x + RADIUS;
    const int first = blockIdx.x * blockDim.x;
    const int bsize = (n - first < BLKDIM ? n - first : BLKDIM);
    int result = 0, offset;

    if (gindex < n) {
        temp[lindex] = in[gindex + RADIUS];
    }
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        temp[lindex + bsize] = in[gindex + RADIUS + bsize];
        __syncthreads(); /* MISTAKE: reached by threads 0..RADIUS-1 only */
    }

    if (gindex < n) {
        for (offset = -RADIUS; offset <= RADIUS; offset++) {
            result += temp[lindex + offset];
        }
        out[gindex] = result;
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
