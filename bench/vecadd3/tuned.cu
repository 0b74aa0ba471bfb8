// hpclab-bench: kind=reference tasks=add title="Tuned reference: four elements per thread in blocks of 256"
// The speed baseline that labs/vecadd3/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. The course's version, one element per thread in blocks
// of 1024, is the solution (solutions/vecadd3/vecadd3.cu); here each thread has 8 loads in flight.
/****************************************************************************
 *
 * tuned.cu - vecadd3, the tuned reference: four elements per thread
 *
 * Based on the course's cuda-vecadd3.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * Check it:  hpclab check vecadd3 --file bench/vecadd3/tuned.cu
 * Time it:   hpclab bench vecadd3 --variants solution,tuned
 *
 ****************************************************************************/
#include "hpc.h"
#include "vecadd3.h"

/* Blocks of 256 threads, and each thread adds ELEMS elements. The lesson's
   version (one element per thread, blocks of 1024) is the same kernel with
   ELEMS = 1: it is the solution, solutions/vecadd3/vecadd3.cu. */
#define BLKDIM 256
#define ELEMS 4

/*
 * Each thread adds ELEMS elements, BLKDIM apart: block b covers the
 * ELEMS * BLKDIM elements that start at b * ELEMS * BLKDIM, in ELEMS rounds
 * of BLKDIM consecutive elements, one per thread. At every round the 32
 * threads of a warp still touch 32 consecutive ints (128 bytes) of a, b
 * and c, so the accesses coalesce as in the lesson's kernel.
 *
 * Why it is fast: the kernel does one addition per 12 bytes moved, so
 * memory bandwidth alone bounds it, and the GPU reaches its bandwidth only
 * with many loads on their way at once (a load waits hundreds of cycles for
 * device memory). With one element per thread a thread has two loads in
 * flight; here it first issues all its 2 * ELEMS loads, then adds and
 * stores, so each thread keeps 8 loads in flight and each multiprocessor
 * (8 blocks of 256 threads) about 64 KB. Smaller blocks also let a
 * multiprocessor start a new block as soon as any of its 8 finishes,
 * instead of waiting for the last warp of a block of 1024. Expected: about
 * 0.9 of a device-to-device copy. The indices are size_t: i + k * BLKDIM
 * would overflow an int for n close to 2^31.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    const size_t first = (size_t)blockIdx.x * (ELEMS * BLKDIM) + threadIdx.x;
    int va[ELEMS], vb[ELEMS];
    int k;

    /* All the loads first: none of them waits for another. */
    for (k = 0; k < ELEMS; k++) {
        const size_t i = first + k * BLKDIM;
        if (i < n) {
            va[k] = a[i];
            vb[k] = b[i];
        }
    }
    /* Then the additions and the stores, with the same bound check. */
    for (k = 0; k < ELEMS; k++) {
        const size_t i = first + k * BLKDIM;
        if (i < n) {
            c[i] = va[k] + vb[k];
        }
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* Enough blocks of ELEMS * BLKDIM elements to cover n (n <= 2^30 in
       this lab, so n + ELEMS * BLKDIM - 1 fits an int). */
    const int n_blocks = (n + ELEMS * BLKDIM - 1) / (ELEMS * BLKDIM);
    add<<<n_blocks, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
