// expect: no_output
// why: the grid is computed at the first call and kept in a static variable for the calls after it: every call of the size it was made for is right, but hpclab calls the task at several sizes in one program, in an order drawn from the check's seed whose first size is never the largest, so a later, larger size gets the first call's grid and its last elements are never written (the invariant no_state)
/*
 * vecadd3.cu with one mistake: the number of blocks computed once, for the first call's n.
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
    static int n_blocks = 0;  /* MISTAKE: computed for the first call's n, kept for the others */
    if (n_blocks == 0) n_blocks = (n + BLKDIM - 1) / BLKDIM;
    add<<<n_blocks, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
