// expect: memcheck
// why: the right halo is loaded blockDim.x past the centre (the lecture's version, right only for n a multiple of BLKDIM): in a partial last block it reads in[] past its end (into the guard zone in the normal runs, so no fault) and leaves the halo slots that are used unwritten (wrong sums); memcheck reports the invalid read at n = 1, 5, 100, 1025 and names the cause.
/*
 * stencil.cu with one mistake: the right halo of the last block is taken
 * at blockDim.x instead of at the block's real size bsize.
 */
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    __shared__ int temp[BLKDIM + 2 * RADIUS];
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    const int lindex = threadIdx.x + RADIUS;
    int result = 0, offset;

    if (gindex < n) {
        temp[lindex] = in[gindex + RADIUS];
    }
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        /* MISTAKE: blockDim.x instead of the block's size bsize (partial last block) */
        temp[lindex + blockDim.x] = in[gindex + RADIUS + blockDim.x];
    }
    __syncthreads();

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
