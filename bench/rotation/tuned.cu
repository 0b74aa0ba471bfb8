// hpclab-bench: kind=reference tasks=naive,tiled title="Tuned reference: a 32x33 tile moved by 32x8 threads, four pixels each"
// The speed baseline that labs/rotation/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. Its naive kernel is the course's, as in the solution
// (solutions/rotation/rotation.cu); its tiled kernel moves the tile with 32x8 threads, not 32x32.
/****************************************************************************
 *
 * tuned.cu - rotation, the tuned reference: four pixels per thread in the
 *            tiled kernel
 *
 * Based on the course's cuda-image-rotation.cu (Moreno Marzolla, "CUDA
 * Programming", University of Bologna).
 *
 * Check it:  hpclab check rotation --file bench/rotation/tuned.cu
 * Time it:   hpclab bench rotation --variants solution,tuned
 *
 ****************************************************************************/
#include "hpc.h"
#include "rotation.h"

/* A warp is 32 threads, and 32 floats are one 128-byte line: a 32 x 32
   block (1024 threads) reads 32 full lines of the input, and in the tiled
   kernel writes 32 runs of 32 consecutive floats of the output. */
#define BLKDIM 32

/*
 * One thread per pixel: thread (x, y) copies input pixel (x, y) to output
 * row x, column height - 1 - y.
 *
 * Why it is slow: the 32 threads of a warp have consecutive x and the same
 * y. Their reads are 32 consecutive floats of an input row (one coalesced
 * 128-byte transaction), but their writes go to 32 different output rows,
 * height floats apart: 32 separate transactions, each of which moves a
 * whole 32-byte sector for a single 4-byte float. The writes use a small
 * fraction of the memory bandwidth they consume, and they dominate the
 * time.
 */
__global__ void rotate( const float *in, float *out, int width, int height )
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;  /* input column */
    const int y = blockIdx.y * blockDim.y + threadIdx.y;  /* input row */
    if (x < width && y < height) {
        /* size_t: width * height may pass 2^31 */
        out[(size_t)x * height + (height - 1 - y)] = in[(size_t)y * width + x];
    }
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((width + BLKDIM - 1) / BLKDIM, (height + BLKDIM - 1) / BLKDIM);
    rotate<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}

/* The tiled kernel moves BLKDIM x BLKDIM tiles with blocks of BLKDIM x ROWS
   = 32 x 8 threads: each thread copies BLKDIM / ROWS = 4 pixels, ROWS rows
   apart. */
#define ROWS 8

/*
 * Through a tile in shared memory. Block (bx, by) rotates the square of the
 * input with top-left pixel (x0, y0) = (bx * BLKDIM, by * BLKDIM), which
 * becomes the square of the output at rows x0 .. x0 + BLKDIM - 1. Its
 * BLKDIM x ROWS threads go over the tile in BLKDIM / ROWS rounds: thread
 * (tx, ty) handles tile rows ty, ty + ROWS, ty + 2*ROWS, ty + 3*ROWS.
 *
 * Why it is fast: both global accesses are coalesced. The read is as in
 * the naive kernel (thread tx reads pixel x0 + tx of a row). For the write
 * the threads swap roles: the warp that handles tile row ly writes output
 * row x0 + ly, thread tx at column height - 1 - (y0 + BLKDIM - 1 - tx), so
 * consecutive threads write consecutive floats. The column-wise access
 * now happens in shared memory: the warp reads tile[BLKDIM - 1 - tx][ly],
 * 32 words BLKDIM + 1 apart. Shared memory has 32 banks (word w is in bank
 * w mod 32); with rows of BLKDIM = 32 words those 32 words would all be in
 * one bank and be served one after the other (a 32-way bank conflict).
 * With rows of 33 words they fall in 32 different banks.
 *
 * What makes it faster than the lesson's version with one pixel per thread
 * in blocks of 32 x 32 (the solution, solutions/rotation/rotation.cu): the
 * kernel only moves bytes, so it needs many loads in flight to reach the
 * memory bandwidth.
 * Here each thread issues its 4 loads before it waits for any, and with
 * blocks of 256 threads a multiprocessor holds 8 blocks: while some wait at
 * their barrier, the others have loads or stores on the way, where a block
 * of 1024 threads leaves the memory idle while all of it waits. Expected:
 * about 0.85 of a device-to-device copy when height is a multiple of 32
 * (otherwise each warp's 128-byte write straddles two lines).
 *
 * One barrier: every element of the tile is written by one thread before
 * it, and read by another after it; the tile is used once. No thread
 * leaves before the barrier: threads outside the image skip their loads
 * and their stores, not the __syncthreads(). A pixel is stored only if it
 * is inside the image, and then the same test let its load write it into
 * the tile.
 */
__global__ void rotateb( const float *in, float *out, int width, int height )
{
    __shared__ float tile[BLKDIM][BLKDIM + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x0 = blockIdx.x * BLKDIM;
    const int y0 = blockIdx.y * BLKDIM;
    int x, y, k;

    /* tile[ly][lx] holds input pixel (x0 + lx, y0 + ly) */
    for (k = 0; k < BLKDIM; k += ROWS) {
        const int ly = ty + k;
        x = x0 + tx;
        y = y0 + ly;
        if (x < width && y < height) {
            tile[ly][tx] = in[(size_t)y * width + x];
        }
    }
    __syncthreads();

    /* Output rows x0 + ly, each from the bottom of the tile up. */
    for (k = 0; k < BLKDIM; k += ROWS) {
        const int ly = ty + k;
        x = x0 + ly;
        y = y0 + BLKDIM - 1 - tx;
        if (x < width && y < height) {
            out[(size_t)x * height + (height - 1 - y)] = tile[BLKDIM - 1 - tx][ly];
        }
    }
}

void rotate_tiled( const float *d_in, float *d_out, int width, int height )
{
    const dim3 block(BLKDIM, ROWS);  /* 32 x 8 threads, for a 32 x 32 tile */
    const dim3 grid((width + BLKDIM - 1) / BLKDIM, (height + BLKDIM - 1) / BLKDIM);
    rotateb<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}
