// expect: memcheck
// why: the lecture's index with + RADIUS used for out[]: out[gindex + RADIUS] = result, so every output lands RADIUS places too far: out[0..2] are never written and the last RADIUS threads write past the end of out[], which memcheck names every time (the normal runs see a damaged guard zone and unwritten outputs, symptoms memcheck explains).
/*
 * stencil.cu with one mistake: the result is stored at out[gindex + RADIUS], the lecture's index of in[].
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
    }
    __syncthreads();

    if (gindex < n) {
        for (offset = -RADIUS; offset <= RADIUS; offset++) {
            result += temp[lindex + offset];
        }
        out[gindex + RADIUS] = result; /* MISTAKE: out[gindex]: out[] has no halo */
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
