// hpclab-bench: kind=limit tasks=naive,tree,atomic title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - reduction's ceiling: a device-to-device copy of the
 *                 bytes the task moves
 *
 * Not a version of the lab: it computes no sum, and hpclab bench does not
 * check its result. It is the speed of light of the task: a sum of n ints
 * reads 4n bytes; a copy that reads 2n bytes and writes 2n moves as many
 * through device memory, with nothing else to do. Timed at every size of
 * the sweep, like the variants, so that a small size is compared with a
 * copy of its own size.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "reduction.h"

/* A copy of `bytes` bytes between two device buffers of this file's own,
   allocated by the first call (the warm-up, not timed) and kept for the
   life of the process, so that a timed call is the copy alone: a[] is the
   lab's only buffer of that size, and it must not be written. */
static void copy_bytes( size_t bytes )
{
    static void *src = NULL, *dst = NULL;
    static size_t allocated = 0;

    if (bytes == 0) return;
    if (bytes > allocated) {
        cudaSafeCall( cudaFree(src) );
        cudaSafeCall( cudaFree(dst) );
        cudaSafeCall( cudaMalloc(&src, bytes) );
        cudaSafeCall( cudaMalloc(&dst, bytes) );
        allocated = bytes;
    }
    cudaSafeCall( cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) );
}

/* 4n bytes moved: 2n read, 2n written. */
static void copy_of_sum( int n )
{
    copy_bytes((size_t)n * sizeof(int) / 2);
}

int sum_naive( const int *d_a, int n )
{
    (void)d_a;
    copy_of_sum(n);
    return 0;
}

int sum_tree( const int *d_a, int n )
{
    (void)d_a;
    copy_of_sum(n);
    return 0;
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    (void)d_a; (void)d_sum;
    copy_of_sum(n);
}
