// expect: wrong_launch
// why: the grid is n blocks of BLKDIM threads, a whole block for every element: the index is a size_t, so it never overflows, and the bound check idles every thread past n, so every answer is right and in bounds; but 1024 threads are launched per element, and from n = 1000003 on the grid has more blocks than the GPU runs at once: the rule one_thread_per (lab.json) says wrong_launch at that size.
/*
 * vecadd3.cu with one mistake: n blocks of BLKDIM threads, where (n + BLKDIM - 1) / BLKDIM are enough.
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
    const size_t index = threadIdx.x + (size_t)blockIdx.x * blockDim.x;

    /* 2: the threads of the last block past the end do nothing */
    if (index < (size_t)n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* 3: enough blocks of BLKDIM threads to cover all n elements */
    add<<<n, BLKDIM>>>(d_a, d_b, d_c, n); /* MISTAKE: (n + BLKDIM - 1) / BLKDIM blocks */
    cudaCheckError();
}
