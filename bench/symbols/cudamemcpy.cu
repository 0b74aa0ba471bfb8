// hpclab-bench: kind=limit tasks=partial,poly title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - symbols' ceiling: a device-to-device copy of the bytes
 *                 each task moves
 *
 * Not a version of the lab: it computes no sum and no polynomial, and
 * hpclab bench does not check its results. It is the speed of light of
 * the tasks: the sum reads 4n bytes; the polynomial reads n floats and
 * writes n (8n bytes); a copy that reads half of those bytes and writes
 * the other half moves as many through device memory, with nothing else
 * to do. Timed at every size of the sweep, like the variants.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "symbols.h"

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
int sum_symbol( const int *d_a, int n )
{
    (void)d_a;
    copy_bytes((size_t)n * sizeof(int) / 2);
    return 0;
}

/* 8n bytes moved: 4n read, 4n written. */
void poly_eval( const float *coeff, const float *d_x, float *d_y, int n )
{
    (void)coeff; (void)d_x; (void)d_y;
    copy_bytes((size_t)n * sizeof(float));
}
