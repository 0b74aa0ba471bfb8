// hpclab-bench: kind=limit tasks=sum,max title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - warpreduce's ceiling: a device-to-device copy of the
 *                 bytes the task moves
 *
 * Not a version of the lab: it computes nothing, and hpclab bench does not
 * check its result. It is the speed of light of the task: a reduction of n
 * ints reads 4n bytes; a copy that reads 2n bytes and writes 2n moves as
 * many through device memory, with nothing else to do. Timed at every size
 * of the sweep, like the variants.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "warpreduce.h"

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
void reduce_sum( const int *d_a, int n, int *d_sum )
{
    (void)d_a; (void)d_sum;
    copy_bytes((size_t)n * sizeof(int) / 2);
}

void reduce_max( const int *d_a, int n, int *d_max )
{
    (void)d_a; (void)d_max;
    copy_bytes((size_t)n * sizeof(int) / 2);
}
