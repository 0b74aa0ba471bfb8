// expect: memcheck
// why: the centre load temp[lindex] = in[gindex + RADIUS] is outside if (gindex < n): the threads of the last block past n read past the end of in[] (n + 2*RADIUS elements) whenever n is not a multiple of 1024; nothing they read is used, so every output is right, but memcheck names the read every time.
/*
 * stencil.cu with one mistake: the centre load is not guarded by if (gindex < n).
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

    temp[lindex] = in[gindex + RADIUS]; /* MISTAKE: only if (gindex < n) */
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
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
