// expect: pass
// why: honest and unusual: transpose keeps a 32 x 32 tile with no padding column and XOR-swizzles an element's column with its row (tile[r][c ^ r]), so that the row-wise store and the column-wise load of a warp both fall in 32 banks; scale_rows runs a 2-D grid-stride loop over a grid capped at 1024 x 1024 blocks, rows along threadIdx.y, columns along threadIdx.x
// timing: yes
/* ANSWERS (measured on the program as given, an H200):
answer scale_rows.load_sectors_per_request = 18
answer transpose.shared_wavefronts_per_request = 17
answer scale_rows.store_sectors_per_request = 32
*/
#include "hpc.h"
#include "diagnose.h"

#define TILE 32

__global__ void transpose_swizzled( const float *in, float *out, int rows, int cols )
{
    __shared__ float tile[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * TILE + ty;
    int c = blockIdx.x * TILE + tx;
    if (r < rows && c < cols) tile[ty][tx ^ ty] = in[(size_t)r * cols + c];
    __syncthreads();
    r = blockIdx.y * TILE + tx;
    c = blockIdx.x * TILE + ty;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = tile[tx][ty ^ tx];
}

void transpose( const float *d_in, float *d_out, int rows, int cols )
{
    const dim3 block(TILE, TILE);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_swizzled<<<grid, block>>>(d_in, d_out, rows, cols);
    cudaCheckError();
}

__global__ void scale_rows_strided( const float *in, const float *f, float *out, int rows, int cols )
{
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += gridDim.y * blockDim.y) {
        const float s = f[r];
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += gridDim.x * blockDim.x)
            out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * s;
    }
}

static unsigned capped( int n, int per ) { const int b = (n + per - 1) / per; return b < 1024 ? b : 1024; }

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    const dim3 block(32, 8);
    const dim3 grid(capped(cols, 32), capped(rows, 8));
    scale_rows_strided<<<grid, block>>>(d_in, d_f, d_out, rows, cols);
    cudaCheckError();
}
