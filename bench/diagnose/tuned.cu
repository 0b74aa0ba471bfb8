// hpclab-bench: kind=reference tasks=transpose,scale_rows title="Tuned reference: a 32x33 tile moved by 32x8 threads; rows scaled four floats a thread"
// The speed baseline that labs/diagnose/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. Its transpose moves the padded tile with 32x8 threads,
// four elements each; its scale_rows reads a float4 per thread along a row.
/****************************************************************************
 *
 * tuned.cu - diagnose, the tuned reference: the given program's problems
 *            fixed, and a few more elements per thread
 *
 * Check it:  hpclab check diagnose --file bench/diagnose/tuned.cu
 * Time it:   hpclab bench diagnose --variants solution,tuned
 *
 ****************************************************************************/
/* ANSWERS, as the lab asks them of every file checked (the program as
   given measured on an H200: docs/results/diagnose-h200.txt):
answer scale_rows.load_sectors_per_request = 18
answer transpose.shared_wavefronts_per_request = 17
answer scale_rows.store_sectors_per_request = 32
*/
#include "hpc.h"
#include "diagnose.h"

#define TILE 32
#define ROWS 8  /* a block of TILE x ROWS threads moves a TILE x TILE tile */

/*
 * The transpose of NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++":
 * a TILE x (TILE + 1) tile (a column of it lies in 32 banks, one pass per
 * warp's access), read and written along rows (coalesced), each thread
 * moving TILE / ROWS = 4 elements: a block of 256 threads, not 1024, so
 * that more blocks share a multiprocessor and the barrier holds fewer warps.
 */
__global__ void transpose_tiled( const float *in, float *out, int rows, int cols )
{
    __shared__ float tile[TILE][TILE + 1];
    const int c = blockIdx.x * TILE + threadIdx.x;
    const int r0 = blockIdx.y * TILE;
    for (int j = threadIdx.y; j < TILE; j += ROWS) {
        if (r0 + j < rows && c < cols) tile[j][threadIdx.x] = in[(size_t)(r0 + j) * cols + c];
    }
    __syncthreads();
    const int r = r0 + threadIdx.x;
    const int c0 = blockIdx.x * TILE;
    for (int j = threadIdx.y; j < TILE; j += ROWS) {
        if (c0 + j < cols && r < rows) out[(size_t)(c0 + j) * rows + r] = tile[threadIdx.x][j];
    }
}

void transpose( const float *d_in, float *d_out, int rows, int cols )
{
    const dim3 block(TILE, ROWS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
    cudaCheckError();
}

/*
 * Four consecutive floats of a row per thread: one 16-byte load and store
 * where the row's start allows it (cols a multiple of 4: every row starts
 * on a 16-byte boundary), one float at a time otherwise. A warp moves 512
 * bytes a request, coalesced.
 */
__global__ void scale_rows4( const float *in, const float *f, float *out, int rows, int cols )
{
    const int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const float s = f[r];
    const size_t i = (size_t)r * cols + c;
    if (cols % 4 == 0) {
        float4 v = *(const float4 *)(in + i);
        v.x *= s; v.y *= s; v.z *= s; v.w *= s;
        *(float4 *)(out + i) = v;
    } else {
        for (int k = 0; k < 4 && c + k < cols; k++) out[i + k] = in[i + k] * s;
    }
}

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    const dim3 block(32, 8);
    const dim3 grid((cols + 4 * 32 - 1) / (4 * 32), (rows + 7) / 8);
    scale_rows4<<<grid, block>>>(d_in, d_f, d_out, rows, cols);
    cudaCheckError();
}
