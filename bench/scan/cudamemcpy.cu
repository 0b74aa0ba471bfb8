// hpclab-bench: kind=limit tasks=blocks,scan title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - scan's ceiling: a device-to-device copy of the bytes the
 *                 task moves
 *
 * Not a version of the lab: it scans nothing, and hpclab bench does not
 * check its result. A scan of n ints reads 4n bytes and writes 4n at the
 * least: a copy of n ints moves as many through device memory, with
 * nothing else to do.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "scan.h"

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

void scan_blocks( const int *d_a, int n, int *d_b )
{
    (void)d_a; (void)d_b;
    copy_bytes((size_t)n * sizeof(int));
}

void scan( const int *d_a, int n, int *d_b )
{
    (void)d_a; (void)d_b;
    copy_bytes((size_t)n * sizeof(int));
}
