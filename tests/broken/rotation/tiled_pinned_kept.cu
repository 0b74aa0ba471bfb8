// expect: not_released
// why: rotate_tiled copies the output's first four pixels back into a row of pinned host memory (cudaMallocHost) to 'check' them (16 bytes, within what the invariant device_finishes spares), and never frees that memory (the naive task is the lesson's): the rotation is right, and every call leaves one pinned host allocation behind, which the call's ledger shows
/*
 * rotation.cu with one mistake in rotate_tiled: a pinned host buffer, made in every call and never freed.
 */
#include "hpc.h"
#include "rotation.h"

/* A warp is 32 threads, and 32 floats are one 128-byte line: a 32 x 32
   block (1024 threads) reads 32 full lines of the input, and in the tiled
   kernel writes 32 runs of 32 consecutive floats of the output. */
#define BLKDIM 32

/*
 * Task "naive": one thread per pixel. Thread (x, y) copies input pixel
 * (x, y) to output row x, column height - 1 - y.
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
    /* 1: the input pixel of this thread */
    const int x = blockIdx.x * blockDim.x + threadIdx.x;  /* input column */
    const int y = blockIdx.y * blockDim.y + threadIdx.y;  /* input row */

    /* 2: to output row x, column height - 1 - y; size_t, as width *
       height may pass 2^31 */
    if (x < width && y < height) {
        out[(size_t)x * height + (height - 1 - y)] = in[(size_t)y * width + x];
    }
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    /* 3: BLKDIM x BLKDIM blocks, enough of them to cover the input */
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((width + BLKDIM - 1) / BLKDIM, (height + BLKDIM - 1) / BLKDIM);
    rotate<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
}

/*
 * Task "tiled": through a tile in shared memory. Block (bx, by) rotates
 * the square of the input with top-left pixel (x0, y0) = (bx * BLKDIM,
 * by * BLKDIM), which becomes the square of the output at rows
 * x0 .. x0 + BLKDIM - 1.
 *
 * Why it is fast: both global accesses are coalesced. The read is as in
 * the naive kernel (thread tx reads pixel x0 + tx of a row). For the write
 * the threads swap roles: the warp with a given ty writes output row
 * x0 + ty, thread tx at column height - 1 - (y0 + BLKDIM - 1 - tx), so
 * consecutive threads write consecutive floats. The column-wise access
 * now happens in shared memory: the warp reads tile[BLKDIM - 1 - tx][ty],
 * 32 words BLKDIM + 1 apart. Shared memory has 32 banks (word w is in bank
 * w mod 32); with rows of BLKDIM = 32 words those 32 words would all be in
 * one bank and be served one after the other (a 32-way bank conflict).
 * With rows of 33 words they fall in 32 different banks.
 *
 * Why it is not faster still: the kernel only moves bytes, so it needs
 * many loads in flight to reach the memory bandwidth, and a block of 1024
 * threads leaves the memory idle while all of it waits at the barrier. The
 * speed baseline, bench/rotation/tuned.cu, moves the same tile with 32 x 8
 * threads, four pixels each, so that 8 smaller blocks share a
 * multiprocessor and some always have loads or stores on the way.
 *
 * One barrier: every element of the tile is written by one thread before
 * it, and read by another after it; the tile is used once. No thread
 * leaves before the barrier: threads outside the image skip their load
 * and their store, not the __syncthreads().
 */
__global__ void rotateb( const float *in, float *out, int width, int height )
{
    /* 4: the tile, with one extra column against bank conflicts */
    __shared__ float tile[BLKDIM][BLKDIM + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x0 = blockIdx.x * BLKDIM;
    const int y0 = blockIdx.y * BLKDIM;

    /* 5: tile[ty][tx] holds input pixel (x0 + tx, y0 + ty): coalesced reads */
    int x = x0 + tx;
    int y = y0 + ty;
    if (x < width && y < height) {
        tile[ty][tx] = in[(size_t)y * width + x];
    }

    /* 6: the whole tile is in shared memory */
    __syncthreads();

    /* 7: output row x0 + ty, from the bottom of the tile up: thread tx and
       tx + 1 write neighbouring floats */
    x = x0 + ty;
    y = y0 + BLKDIM - 1 - tx;
    if (x < width && y < height) {
        out[(size_t)x * height + (height - 1 - y)] = tile[BLKDIM - 1 - tx][ty];
    }
}

void rotate_tiled( const float *d_in, float *d_out, int width, int height )
{
    /* 8: the same block and grid as rotate_naive */
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((width + BLKDIM - 1) / BLKDIM, (height + BLKDIM - 1) / BLKDIM);
    rotateb<<<grid, block>>>(d_in, d_out, width, height);
    cudaCheckError();
    float *h_row;
    cudaSafeCall( cudaMallocHost((void **)&h_row, height * sizeof(float)) );
    cudaSafeCall( cudaMemcpy(h_row, d_out, (height < 4 ? height : 4) * sizeof(float), cudaMemcpyDeviceToHost) );  /* its first pixels */
    /* MISTAKE: no cudaFreeHost(h_row) */
}
