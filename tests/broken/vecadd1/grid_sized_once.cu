// expect: wrong_answer
// why: the grid is computed at the first call and kept in a static variable for the calls after it: every call of the size it was made for is right, but hpclab calls the task at several sizes in one program, in an order drawn from the check's seed whose first size is never the largest, so a later, larger size gets the first call's grid and its last elements are never computed: the device buffer's unwritten part (what cudaMalloc left there) is copied back to the host's `c`, so they show as wrong values rather than hpclab's untouched poison (the invariant no_state)
/*
 * vecadd1.cu with one mistake: the number of blocks fixed at the first call's n.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

/*
 * One block of one thread per element. Correct, and slow on purpose: the
 * GPU runs threads in warps of 32, so a block of one thread occupies a
 * whole warp with 31 lanes idle, and each memory request of that warp
 * carries 4 bytes where a full warp's would carry 128. A multiprocessor
 * also holds only a limited number of resident blocks (32 on the H100),
 * so at one thread per block it keeps 32 threads in flight where it could
 * keep 2048: far too few loads on their way to hide the memory latency.
 * The grading model
 * measured this layout about 127 times slower than vecadd3's blocks of
 * 1024 threads. The index blockIdx.x is below n <= 2^24, so no int
 * overflow; the bound check is not needed with exactly n blocks, but costs
 * nothing and keeps a larger grid harmless.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd1( const int *a, const int *b, int *c, int n )
{
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    static int n_blocks = 0;  /* MISTAKE: the first call's n, kept for the others */
    if (n_blocks == 0) n_blocks = n;
    add<<<n_blocks, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
