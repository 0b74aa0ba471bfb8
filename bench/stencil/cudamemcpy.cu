// hpclab-bench: kind=limit tasks=shared title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - stencil's ceiling: a device-to-device copy of the bytes
 *                 the task moves
 *
 * Not a version of the lab: its outputs are not the stencil, and hpclab
 * bench does not check them. It is the speed of light of the task: the
 * stencil reads in[] (n + 2*RADIUS ints) and writes out[] (n ints) at
 * best once each; a copy that reads and writes half of those bytes moves
 * as many through device memory, with nothing else to do. Timed at every
 * size of the sweep, like the variants, so that a small size is compared
 * with a copy of its own size.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "stencil.h"

/* A copy of `bytes` bytes between two device buffers of this file's own,
   allocated by the first call (the warm-up, not timed) and kept for the
   life of the process, so that a timed call is the copy alone. out[] is
   smaller than the n + RADIUS ints to copy. */
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

void stencil1d( const int *d_in, int *d_out, int n )
{
    (void)d_in; (void)d_out;
    /* 4(n + 2 RADIUS) + 4n bytes moved: half read, half written */
    copy_bytes(((size_t)n + RADIUS) * sizeof(int));
}
