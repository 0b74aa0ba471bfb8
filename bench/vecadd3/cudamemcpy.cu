// hpclab-bench: kind=limit tasks=add title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - vecadd3's ceiling: a device-to-device copy of the bytes
 *                 the task moves
 *
 * Not a version of the lab: its outputs are not c = a + b, and hpclab
 * bench does not check them. It is the speed of light of the task. An
 * addition of n ints reads 8n bytes and writes 4n; a copy that reads and
 * writes 6n bytes moves the same 12n through device memory, with nothing
 * else to do. Timed at every size of the sweep, like the variants, so
 * that a small size is compared with a copy of its own size (a copy of a
 * few MB does not reach the bandwidth of a large one either).
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "vecadd3.h"

/* A copy of `bytes` bytes between two device buffers of this file's own,
   allocated by the first call (the warm-up, not timed) and kept for the
   life of the process, so that a timed call is the copy alone. The lab's
   buffers cannot hold 6n bytes. */
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

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    (void)d_a; (void)d_b; (void)d_c;
    copy_bytes((size_t)n * 3 * sizeof(int) / 2);   /* 12n bytes moved: 6n read, 6n written */
}
