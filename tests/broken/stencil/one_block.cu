// expect: no_output
// why: one block of BLKDIM threads is launched whatever n is: every size up to 1024 is right, but from n = 1025 on the outputs past the first 1024 keep the poison; the kernel itself is right, so nothing is read or written out of bounds and there is no race.
/*
 * stencil.cu with one mistake: the grid is a single block.
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
        out[gindex] = result;
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<1, BLKDIM>>>(d_in, d_out, n); /* MISTAKE: (n + BLKDIM - 1) / BLKDIM blocks */
    cudaCheckError();
}
