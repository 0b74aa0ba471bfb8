// expect: pass
// why: honest and unusual, for the tiled task: a 32 x 32 tile with no padding column, moved by 32 x 8 threads, four pixels each; a pixel's column in the tile is XOR-swizzled with its row (tile[r][c ^ r]), so that both the row-wise store and the column-wise load of a warp fall in 32 different banks. The naive task is the lesson's
// timing: yes
#include "hpc.h"
#include "rotation.h"

#define TILE 32
#define ROWS 8

__global__ void rotate(const float *in, float *out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[(size_t)x * height + (height - 1 - y)] = in[(size_t)y * width + x];
}

void rotate_naive(const float *d_in, float *d_out, int width, int height)
{
    const dim3 block(TILE, TILE);
    const dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    rotate<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}

__global__ void rotate_swizzled(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];  /* tile[r][c ^ r]: input pixel (x0 + c, y0 + r) */
    const int tx = threadIdx.x;
    const int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        const int x = x0 + tx, y = y0 + r;
        if (x < width && y < height) tile[r][tx ^ r] = in[(size_t)y * width + x];
    }
    __syncthreads();
    for (int c = threadIdx.y; c < TILE; c += ROWS) {
        /* output row x0 + c; thread tx writes the input's row y0 + TILE - 1 - tx */
        const int r = TILE - 1 - tx;
        const int x = x0 + c, y = y0 + r;
        if (x < width && y < height) out[(size_t)x * height + (height - 1 - y)] = tile[r][c ^ r];
    }
}

void rotate_tiled(const float *d_in, float *d_out, int width, int height)
{
    const dim3 block(TILE, ROWS);
    const dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    rotate_swizzled<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}
