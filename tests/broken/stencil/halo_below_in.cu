// expect: memcheck
// why: the left halo is loaded from in[gindex - RADIUS] instead of in[gindex] (in[] already starts with its halo): block 0's first threads read in[-3..-1], before the array, which memcheck names every time; the other blocks' first outputs come out wrong (a symptom memcheck explains).
/*
 * stencil.cu with one mistake: the left halo is read RADIUS elements too early.
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
        temp[lindex - RADIUS] = in[gindex - RADIUS]; /* MISTAKE: in[gindex]: in[] starts with its left halo */
        temp[lindex + bsize] = in[gindex + RADIUS + bsize];
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
