// hpclab-bench: kind=limit tasks=pinned,overlap title="the call's copies alone, both directions at once, from pinned memory"
/****************************************************************************
 *
 * cudamemcpy.cu - streams' ceiling: the copies every call must make
 *
 * Not a version of the lab: its output is not y = 2x + 1, and hpclab
 * bench does not check it. x and y are host memory, so a call cannot be
 * faster than copying x to the device and y back over the bus. This file
 * makes those two copies from pinned memory, at the same time on two
 * streams (the bus carries both directions at once), to device memory of
 * its own allocated by the first call at a size (the warm-up, not timed),
 * and nothing else: no cudaMalloc, no kernel, no chunks.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "streams.h"

void *host_alloc( size_t bytes )
{
    void *p = NULL;
    cudaSafeCall( cudaHostAlloc(&p, bytes, cudaHostAllocDefault) );
    return p;
}

void host_free( void *p )
{
    cudaSafeCall( cudaFreeHost(p) );
}

static void copies( const int *x, int *y, int n )
{
    static int *d = NULL;    /* d[0 .. n-1]: x; d[n .. 2n-1]: y */
    static int d_n = 0;
    static cudaStream_t in, out;
    const size_t size = (size_t)n * sizeof(int);

    if (d_n != n) {
        if (d != NULL) {
            cudaSafeCall( cudaFree(d) );
        } else {
            cudaSafeCall( cudaStreamCreate(&in) );
            cudaSafeCall( cudaStreamCreate(&out) );
        }
        cudaSafeCall( cudaMalloc((void **)&d, 2 * size) );
        d_n = n;
    }
    cudaSafeCall( cudaMemcpyAsync(d, x, size, cudaMemcpyHostToDevice, in) );
    cudaSafeCall( cudaMemcpyAsync(y, d + n, size, cudaMemcpyDeviceToHost, out) );
    cudaSafeCall( cudaDeviceSynchronize() );
}

void scale_pinned( const int *x, int *y, int n ) { copies(x, y, n); }
void scale_overlap( const int *x, int *y, int n ) { copies(x, y, n); }
