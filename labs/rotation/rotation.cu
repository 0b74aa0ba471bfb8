/****************************************************************************
 *
 * rotation.cu - Rotate a grayscale image 90 degrees clockwise
 *
 * Based on the course's cuda-image-rotation.cu (Moreno Marzolla, "CUDA
 * Programming", University of Bologna).
 *
 * The input is height rows of width pixels; the output is width rows of
 * height pixels. Column x of the input, read from the bottom up, becomes
 * row x of the output:
 *
 *     in (width 3, height 2)      out (width 2, height 3)
 *
 *         A B C                        D A
 *         D E F                        E B
 *                                      F C
 *
 *     out[x * height + (height - 1 - y)] = in[y * width + x]
 *
 * There is no arithmetic at all: the whole cost is memory traffic, and the
 * lesson is how the threads of a warp touch memory. A warp's accesses are
 * fast when its 32 threads read or write 32 consecutive floats (one
 * coalesced transaction), slow when they are scattered (up to 32).
 *
 * Task "naive": one thread per input pixel. Consecutive threads read
 * consecutive pixels of an input row (coalesced) but write them down a
 * column of the output, height floats apart (scattered).
 *
 * Task "tiled": a block copies a BLKDIM x BLKDIM square of the input into
 * shared memory with coalesced reads, waits (__syncthreads()), then writes
 * the rotated square out so that consecutive threads write consecutive
 * pixels of an output row. The scattered accesses now happen in shared
 * memory, which does not care about coalescing - but it has banks, and a
 * column of a BLKDIM x BLKDIM float array lies in a single bank. One extra
 * column (BLKDIM x (BLKDIM + 1)) spreads it over all the banks.
 *
 * width and height are any sizes, not only multiples of BLKDIM, and the
 * image is not square in general. Mind the size of the indices: a large
 * image has more than 2^31 pixels.
 *
 * Run it (builds it, runs it on the image chelsea.pgm in this folder,
 * checks it against the CPU, times it, and writes the rotated images to
 * rotation-naive.pgm and rotation-tiled.pgm, which any image viewer opens):
 *
 *     hpclab run rotation
 *     hpclab run rotation --image my.pgm          (your own grayscale image)
 *     hpclab run rotation --width 640 --height 480   (random pixels)
 *
 ****************************************************************************/
#include "hpc.h"
#include "rotation.h"

#define BLKDIM 32

/*
 * Task "naive": one thread per pixel.
 */
__global__ void rotate( const float *in, float *out, int width, int height )
{
    /* TODO 1: compute the column x and the row y of the input pixel this
       thread copies: x from the x coordinates (blockIdx.x, blockDim.x,
       threadIdx.x), y from the y ones. */

    /* TODO 2: if the pixel is inside the image (x < width && y < height),
       copy it to its place in the output:

           out[x * height + (height - 1 - y)] = in[y * width + x]

       computing both indices in size_t, e.g. (size_t)x * height: with
       int, x * height overflows on a large image. */
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    /* TODO 3: launch rotate with blocks of BLKDIM x BLKDIM threads and a
       2-D grid that covers width columns (x) and height rows (y), when
       they are not multiples of BLKDIM. One block of one thread, as
       below, covers one pixel at most. */
    rotate<<<1, 1>>>(d_in, d_out, width, height);
    cudaCheckError();
}

/*
 * Task "tiled": block (blockIdx.x, blockIdx.y) rotates the square of the
 * input whose top-left pixel is (x0, y0) = (blockIdx.x * BLKDIM,
 * blockIdx.y * BLKDIM).
 */
__global__ void rotateb( const float *in, float *out, int width, int height )
{
    /* TODO 4: declare the tile, __shared__ float tile[BLKDIM][BLKDIM + 1]
       (the extra column avoids bank conflicts below), and compute x0 and
       y0 as above. Let tx = threadIdx.x, ty = threadIdx.y. */

    /* TODO 5: read: thread (tx, ty) copies input pixel (x0 + tx, y0 + ty)
       into tile[ty][tx], if that pixel is inside the image. Consecutive
       threads (tx) read consecutive pixels of a row: coalesced. */

    /* TODO 6: wait until the whole tile is in shared memory. */

    /* TODO 7: write: now thread (tx, ty) writes output row x0 + ty, and
       consecutive threads must write consecutive pixels of that row. The
       output row x holds input column x from the bottom up, so thread tx
       writes input pixel (x, y) with

           x = x0 + ty,   y = y0 + BLKDIM - 1 - tx

       which is tile[BLKDIM - 1 - tx][ty], to
       out[x * height + (height - 1 - y)] (index in size_t), if x < width
       and y < height. Check on paper that tx and tx + 1 write
       neighbouring floats. */
}

void rotate_tiled( const float *d_in, float *d_out, int width, int height )
{
    /* TODO 8: launch rotateb with the same block and grid as in
       rotate_naive: one block per BLKDIM x BLKDIM square of the input. */
    rotateb<<<1, 1>>>(d_in, d_out, width, height);
    cudaCheckError();
}
