// expect: race
// why: transpose has no __syncthreads() between filling the tile and reading it back: thread (x, y) reads the element thread (y, x) wrote, in another warp, which may not have written it yet; racecheck reports the RAW hazard on the tile at the small sizes. scale_rows is the lesson's.
/*
 * diagnose.cu with one of the given program's mistakes left: no barrier in
 * transpose.
 */
/* ANSWERS (measured on the program as given, an H200):
answer scale_rows.load_sectors_per_request = 18
answer transpose.shared_wavefronts_per_request = 17
answer scale_rows.store_sectors_per_request = 32
*/
#include "hpc.h"
#include "diagnose.h"

#define TILE 32

/*
 * transpose: block (blockIdx.x, blockIdx.y) moves the TILE x TILE square
 * whose top-left element is row blockIdx.y * TILE, column blockIdx.x * TILE
 * through shared memory, so that both its reads of in and its writes of
 * out run along rows (coalesced).
 *
 * Fixed:
 * - the race: thread (x, y) writes out the element that thread (y, x) read,
 *   in another warp; __syncthreads() between the two halves makes every
 *   warp's element be in the tile before any warp reads it back
 *   (racecheck: a RAW hazard on tile without it);
 * - the bank conflicts: a warp's write half reads a column of the tile,
 *   tile[0..31][y]. With rows of TILE floats, element [i][y] is at word
 *   i * 32 + y, bank (i * 32 + y) % 32 = y for every i: one bank, 32
 *   passes. With rows of TILE + 1 floats it is at i * 33 + y, bank
 *   (i + y) % 32: 32 banks, one pass (--profile's
 *   shared_wavefronts_per_request: about 1 here, against the
 *   given program's many).
 */
__global__ void transpose_kernel( const float *in, float *out, int rows, int cols )
{
    __shared__ float tile[TILE][TILE + 1];

    /* read: thread (x, y) copies in's element (r0 + y, c0 + x) */
    int r = blockIdx.y * TILE + threadIdx.y;
    int c = blockIdx.x * TILE + threadIdx.x;
    if (r < rows && c < cols) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    }

    /* write: thread (x, y) writes out's row c0 + y, column r0 + x, which
       is in's element (r0 + x, c0 + y) */
    r = blockIdx.y * TILE + threadIdx.x;
    c = blockIdx.x * TILE + threadIdx.y;
    if (r < rows && c < cols) {
        out[(size_t)c * rows + r] = tile[threadIdx.x][threadIdx.y];
    }
}

void transpose( const float *d_in, float *d_out, int rows, int cols )
{
    const dim3 block(TILE, TILE);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(d_in, d_out, rows, cols);
    cudaCheckError();
}

/*
 * scale_rows: one thread per element, in blocks of 32 x 8 threads.
 *
 * Fixed:
 * - the loads and stores: threadIdx.x now runs along a row (the column c),
 *   so a warp's 32 threads read and write 32 consecutive floats, 4 sectors
 *   of 32 bytes, where threadIdx.x down a column touched 32 rows, 32
 *   sectors for 32 floats; f[r] is one float for the whole warp;
 * - the last blocks: the grid is rounded up, and a thread past the last
 *   row or column does nothing (without the guard, c >= cols wrote into
 *   the next row, and r >= rows past the end of out).
 */
__global__ void scale_rows_kernel( const float *in, const float *f, float *out, int rows, int cols )
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * f[r];
    }
}

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    const dim3 block(32, 8);
    const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    scale_rows_kernel<<<grid, block>>>(d_in, d_f, d_out, rows, cols);
    cudaCheckError();
}
