// hpclab-bench: kind=reference tasks=shared title="Tuned reference: eight outputs per thread in blocks of 256"
// The speed baseline that labs/stencil/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. The course's version, one output per thread in blocks
// of 1024, is the solution (solutions/stencil/stencil.cu); here each thread computes 8 outputs.
/****************************************************************************
 *
 * tuned.cu - stencil, the tuned reference: eight outputs per thread
 *
 * Based on the course's cuda-stencil1d.c and cuda-stencil1d-shared.c
 * (Moreno Marzolla, "CUDA Programming", after Mark Harris's "CUDA C/C++
 * Basics").
 *
 * Check it:  hpclab check stencil --file bench/stencil/tuned.cu
 * Time it:   hpclab bench stencil --variants solution,tuned
 *
 ****************************************************************************/
#include "hpc.h"
#include "stencil.h"

/* Blocks of BLKDIM threads; each thread computes ELEMS outputs, so a block
   computes TILE = ELEMS * BLKDIM of them from a cache of TILE + 2*RADIUS
   inputs. The lesson's version (one output per thread, blocks of 1024) is
   the same pattern with ELEMS = 1: it is the solution,
   solutions/stencil/stencil.cu. */
#define BLKDIM 256
#define ELEMS 8
#define TILE (ELEMS * BLKDIM)

/*
 * Block b computes the outputs first .. first + bsize - 1, with
 * first = b * TILE and bsize = TILE (fewer in the last block when n is not
 * a multiple of TILE). Those outputs need the inputs in[first] ..
 * in[first + bsize + 2*RADIUS - 1]: the block copies them into temp[]
 * (temp[k] = in[first + k]), then each output out[first + k] is the sum of
 * temp[k] .. temp[k + 2*RADIUS].
 *
 * Both phases go in rounds of BLKDIM consecutive elements, one per thread
 * (thread t handles k = t, t + BLKDIM, t + 2*BLKDIM, ...), so the warps read
 * in[] and write out[] at consecutive addresses (coalesced), and read
 * temp[] at consecutive words (32 different banks). The halo needs no
 * special threads: the copy is just 2*RADIUS elements longer than the
 * block's outputs, and one more round (ELEMS + 1 rounds for up to
 * TILE + 2*RADIUS elements) covers them.
 *
 * Why it is fast: the kernel does 6 additions per 8 bytes moved, so memory
 * bandwidth bounds it, and each input comes from device memory once (plus
 * 2*RADIUS = 6 halo ints per 2048 outputs). Three things keep the memory
 * busy, where the lesson's version (1024 threads, one output each) left it
 * idle part of the time: each thread issues its ELEMS + 1 loads before it
 * waits for any; the barrier comes once per 2048 outputs; and with blocks
 * of 256 threads a multiprocessor holds 8 of them, so while one block waits
 * at its barrier or adds up, the others have their loads on the way.
 * Expected: about 0.85-0.9 of a copy of in[] into out[].
 *
 * Every thread reaches the barrier: the guards skip loads and stores, never
 * the __syncthreads(). The indices into in[] and out[] are size_t, as n + a
 * block's offsets can come close to 2^31.
 */
__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    __shared__ int temp[TILE + 2 * RADIUS];
    const size_t first = (size_t)blockIdx.x * TILE;  /* this block's first output */
    const int bsize = (n - first < TILE ? n - first : TILE);  /* and how many it computes */
    int k, offset;

    /* Copy in[first .. first + bsize + 2*RADIUS - 1] into temp[]. */
    for (k = 0; k <= ELEMS; k++) {
        const int j = threadIdx.x + k * BLKDIM;
        if (j < bsize + 2 * RADIUS) {
            temp[j] = in[first + j];
        }
    }
    /* Nobody reads temp[] before all of it is written. */
    __syncthreads();

    for (k = 0; k < ELEMS; k++) {
        const int j = threadIdx.x + k * BLKDIM;
        if (j < bsize) {
            int result = 0;
            for (offset = 0; offset <= 2 * RADIUS; offset++) {
                result += temp[j + offset];
            }
            out[first + j] = result;
        }
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    /* Enough blocks of TILE outputs to cover n (n <= 2^30 in this lab). */
    stencil1d_kernel<<<(n + TILE - 1) / TILE, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
