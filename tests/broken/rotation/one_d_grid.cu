// expect: wrong_launch
// why: rotate_naive uses a 1-D grid of 1-D blocks over width*height pixels (x and y from % and /): every pixel lands in the right place, in bounds, at about the naive speed, but the 2-D grid the lesson asks for is absent from the trace.
/*
 * rotation.cu with one mistake: rotate_naive launches a 1-D grid and
 * recovers x and y from a flat index.
 * rotate_tiled is the reference solution.
 */
#include "hpc.h"
#include "rotation.h"

#define BLKDIM 32

/* naive: one thread per pixel */
/* MISTAKE: a 1-D grid; the lesson asks for a 2-D grid of 2-D blocks */
__global__ void rotate( const float *in, float *out, int width, int height )
{
    const size_t index = (size_t)blockIdx.x * blockDim.x + threadIdx.x;  /* input pixel */
    if (index < (size_t)width * height) {
        const int x = (int)(index % width);  /* input column */
        const int y = (int)(index / width);  /* input row */
        out[(size_t)x * height + (height - 1 - y)] = in[index];
    }
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    const size_t pixels = (size_t)width * height;
    const unsigned int nblocks = (unsigned int)((pixels + BLKDIM * BLKDIM - 1) / (BLKDIM * BLKDIM));
    rotate<<<nblocks, BLKDIM * BLKDIM>>>(d_in, d_out, width, height); /* MISTAKE: 1-D */
    cudaCheckError();
}

/* tiled: a square tile of the image through shared memory */
__global__ void rotateb( const float *in, float *out, int width, int height )
{
    __shared__ float tile[BLKDIM][BLKDIM + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x0 = blockIdx.x * BLKDIM;
    const int y0 = blockIdx.y * BLKDIM;

    int x = x0 + tx;
    int y = y0 + ty;
    if (x < width && y < height) {
        tile[ty][tx] = in[(size_t)y * width + x];
    }
    __syncthreads();

    x = x0 + ty;
    y = y0 + BLKDIM - 1 - tx;
    if (x < width && y < height) {
        out[(size_t)x * height + (height - 1 - y)] = tile[BLKDIM - 1 - tx][ty];
    }
}

void rotate_tiled( const float *d_in, float *d_out, int width, int height )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((width + BLKDIM - 1) / BLKDIM, (height + BLKDIM - 1) / BLKDIM);
    rotateb<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}
