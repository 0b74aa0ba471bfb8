// hpclab-bench: kind=limit tasks=add title="the call's copies alone (a and b to the device, c back)"
/****************************************************************************
 *
 * cudamemcpy.cu - vecadd0's ceiling: the copies every call must make
 *
 * Not a version of the lab: its output is not *c = *a + *b, and hpclab
 * bench does not check it. a, b and c are host memory, so a call cannot
 * be faster than copying two ints to the device and one back: three
 * copies of 4 bytes, each a round trip over the bus, whose time is
 * latency, not bandwidth. This file makes those copies and nothing else,
 * to device memory of its own allocated by the first call (the warm-up,
 * not timed); the lab's version adds three cudaMalloc, a launch and three
 * cudaFree.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "vecadd0.h"

void add_on_device( const int *a, const int *b, int *c )
{
    static int *d = NULL;   /* d[0], d[1]: a and b; d[2]: c */

    if (d == NULL) cudaSafeCall( cudaMalloc((void **)&d, 3 * sizeof(int)) );
    cudaSafeCall( cudaMemcpy(d, a, sizeof(int), cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d + 1, b, sizeof(int), cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(c, d + 2, sizeof(int), cudaMemcpyDeviceToHost) );
}
