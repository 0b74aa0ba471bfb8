/****************************************************************************
 *
 * diagnose.cu - Find and fix what is wrong with a working program
 *
 * This file compiles, runs, and prints plausible answers. It is also
 * wrong in two ways and slow in two more, and this lab is not about
 * writing kernels: it is about finding what is wrong with one using the
 * tools, compute-sanitizer and the profiler, before reading the code for
 * it. Each of the four problems is one a GPU course warns about:
 *
 *   - an access outside an array in the last blocks of a grid;
 *   - threads that read shared memory another warp has not written yet
 *     (a missing barrier);
 *   - global loads whose 32 threads touch 32 different sectors
 *     (uncoalesced);
 *   - a warp's shared-memory access that hits one bank 32 times (bank
 *     conflicts).
 *
 * The two functions (their contract is in diagnose.h):
 *
 *     transpose:  out[c * rows + r] = in[r * cols + c]
 *     scale_rows: out[r * cols + c] = in[r * cols + c] * f[r]
 *
 * Find them (the TODO steps below), fix them, and answer three questions
 * about the program AS IT WAS GIVEN TO YOU with numbers you measured:
 * hpclab measures the original program itself and checks your numbers
 * against its own, within a quarter.
 *
 ****************************************************************************/

/* ANSWERS - measured on the program as it was given, at the timed size
   (hpclab check diagnose --profile shows the same measures for YOUR file;
   run it before your first change, or on a copy of this file as given):

answer scale_rows.load_sectors_per_request =
answer transpose.shared_wavefronts_per_request =
answer scale_rows.store_sectors_per_request =
*/

/*
 * TODO 1: run hpclab check diagnose. It runs your file under
 * compute-sanitizer's memcheck and racecheck: read which task, which size,
 * which line. Fix the out-of-bounds access first (a guard that every
 * thread of the last blocks passes through), then the race (a barrier).
 *
 * TODO 2: run hpclab check diagnose --profile. It profiles each task once
 * with Nsight Compute and prints each measure with what it means. Write
 * the three numbers it shows for the program as given into the ANSWERS
 * block above, before you change the kernels' speed.
 *
 * TODO 3: make scale_rows' loads coalesced (consecutive threads of a warp
 * on consecutive floats of a row) and transpose's shared-memory accesses
 * free of bank conflicts. --profile shows the measures moving; the check
 * times both tasks against the lesson's own fix.
 */
#include "hpc.h"
#include "diagnose.h"

#define TILE 32

/*
 * transpose: block (blockIdx.x, blockIdx.y) moves the TILE x TILE square
 * whose top-left element is row blockIdx.y * TILE, column blockIdx.x * TILE
 * through shared memory, so that both its reads of in and its writes of
 * out run along rows (coalesced).
 */
__global__ void transpose_kernel( const float *in, float *out, int rows, int cols )
{
    __shared__ float tile[TILE][TILE];

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
 */
__global__ void scale_rows_kernel( const float *in, const float *f, float *out, int rows, int cols )
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = blockIdx.y * blockDim.y + threadIdx.y;
    out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * f[r];
}

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    const dim3 block(32, 8);
    const dim3 grid((rows + 31) / 32, (cols + 7) / 8);
    scale_rows_kernel<<<grid, block>>>(d_in, d_f, d_out, rows, cols);
    cudaCheckError();
}
