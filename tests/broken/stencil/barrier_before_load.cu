// expect: race
// why: the __syncthreads() is before the loads into temp[] instead of between them and the reads: a thread may read a neighbour's (or the halo's) slot before it is written; outputs may or may not come out wrong from run to run, and racecheck reports the shared-memory hazard every time.
/*
 * stencil.cu with one mistake: the barrier comes before the cache is filled, not after.
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

    __syncthreads(); /* MISTAKE: the barrier belongs after the loads, before the reads */
    if (gindex < n) {
        temp[lindex] = in[gindex + RADIUS];
    }
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        temp[lindex + bsize] = in[gindex + RADIUS + bsize];
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
