// hpclab-bench: kind=course tasks=add title="Course cuda-vecadd3: one element per thread in blocks of 1024"
// The course's version: the reference solution as it was before it was tuned
// (solutions/vecadd3/vecadd3.cu, verbatim below this header). GPU tests also use it
// to prove that a course-style student solution still passes (gpu.<lab>.bench.course).
/****************************************************************************
 *
 * vecadd3.cu - Vector addition with blocks and threads (solution)
 *
 * Based on the course's cuda-vecadd3.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * Run it:  hpclab run vecadd3 --solution
 *
 ****************************************************************************/
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

/*
 * One thread per element. Why it is fast: consecutive threads of a warp
 * read consecutive ints of a and b and write consecutive ints of c, so each
 * warp's accesses coalesce into a few full 128-byte transactions, and the
 * (n + BLKDIM - 1) / BLKDIM blocks keep every multiprocessor busy. The
 * kernel does one addition per 12 bytes moved, so memory bandwidth alone
 * bounds it: it can at best match a device-to-device copy of the same bytes.
 * What keeps it a little below that: each thread does a single element, so
 * there are few loads in flight per thread to hide the memory latency.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
