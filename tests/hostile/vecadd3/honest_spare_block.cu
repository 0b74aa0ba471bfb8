// expect: pass
// why: an honest control for the rule one_thread_per: the grid is (n + BLKDIM) / BLKDIM blocks, one more than needed whenever n is a multiple of BLKDIM (n = 1024, 2^24); the spare block's threads fail the bound check and do nothing. One spare block is allowed: it must pass.
/*
 * vecadd3.cu with the grid rounded up by a whole block: (n + BLKDIM) / BLKDIM.
 */
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
 * there are few loads in flight per thread to hide the memory latency. The
 * speed baseline, bench/vecadd3/tuned.cu, gives each thread four elements
 * in blocks of 256 to keep more of them on their way.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* 1: the element this thread handles (n <= 2^30: an int will do) */
    const int index = threadIdx.x + blockIdx.x * blockDim.x;

    /* 2: the threads of the last block past the end do nothing */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* 3: enough blocks of BLKDIM threads to cover all n elements */
    add<<<(n + BLKDIM) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
