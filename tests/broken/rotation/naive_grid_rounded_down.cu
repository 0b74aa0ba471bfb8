// expect: cuda_error
// why: rotate_naive's grid is width / BLKDIM by height / BLKDIM blocks, rounded down: for the 1 x 1, 1 x 7 and 7 x 1 images that is a grid with 0 blocks in x or y, an invalid launch configuration that the student's cudaCheckError() stops on; this outranks the unwritten last columns and rows of the larger images (no_output).
/*
 * rotation.cu with one mistake: rotate_naive's grid is not rounded up.
 */
#include "hpc.h"
#include "rotation.h"

#define BLKDIM 32

/* naive: one thread per pixel */
__global__ void rotate( const float *in, float *out, int width, int height )
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;  /* input column */
    const int y = blockIdx.y * blockDim.y + threadIdx.y;  /* input row */
    if (x < width && y < height) {
        out[(size_t)x * height + (height - 1 - y)] = in[(size_t)y * width + x];
    }
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid(width / BLKDIM, height / BLKDIM); /* MISTAKE: (width + BLKDIM - 1) / BLKDIM, ... */
    rotate<<<grid, block>>>(d_in, d_out, width, height);
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
