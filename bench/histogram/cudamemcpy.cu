// hpclab-bench: kind=limit tasks=global,shared title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - histogram's ceiling: a device-to-device copy of the
 *                 bytes the task moves
 *
 * Not a version of the lab: it counts nothing, and hpclab bench does not
 * check its result. It is the speed of light of the task: a histogram of n
 * ints reads 4n bytes (the bins' few writes aside); a copy that reads 2n
 * bytes and writes 2n moves as many through device memory, with nothing
 * else to do.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "histogram.h"

/* A copy of `bytes` bytes between two device buffers of this file's own,
   allocated by the first call (the warm-up, not timed) and kept for the
   life of the process, so that a timed call is the copy alone. */
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
static void copy_of_histogram( int n )
{
    copy_bytes((size_t)n * sizeof(int) / 2);
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    (void)d_a; (void)d_hist; (void)bins;
    copy_of_histogram(n);
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    (void)d_a; (void)d_hist; (void)bins;
    copy_of_histogram(n);
}
