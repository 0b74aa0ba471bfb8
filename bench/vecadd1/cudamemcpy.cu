// hpclab-bench: kind=limit tasks=add title="the call's copies alone (a and b to the device, c back)"
/****************************************************************************
 *
 * cudamemcpy.cu - vecadd1's ceiling: the copies every call must make
 *
 * Not a version of the lab: its outputs are not c = a + b, and hpclab
 * bench does not check them. a, b and c are host memory here, so a call
 * cannot be faster than moving a and b to the device and c back over the
 * bus: 12n bytes through PCIe (or the host link), against which the
 * kernel's own time is small. This file makes those three copies and
 * nothing else, to device buffers of its own, allocated by the first call
 * (the warm-up, not timed) and kept for the life of the process.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "vecadd1.h"

void vecadd1( const int *a, const int *b, int *c, int n )
{
    static int *d_a = NULL, *d_b = NULL, *d_c = NULL;
    static size_t allocated = 0;
    const size_t size = (size_t)n * sizeof(int);

    if (size > allocated) {
        cudaSafeCall( cudaFree(d_a) );
        cudaSafeCall( cudaFree(d_b) );
        cudaSafeCall( cudaFree(d_c) );
        cudaSafeCall( cudaMalloc((void **)&d_a, size) );
        cudaSafeCall( cudaMalloc((void **)&d_b, size) );
        cudaSafeCall( cudaMalloc((void **)&d_c, size) );
        allocated = size;
    }
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
}
