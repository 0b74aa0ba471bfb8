// expect: too_slow
// profile: atomics_per_block
// why: no tree: every thread atomicAdd()s its own element into *d_sum. The sum is right (integer atomics in any order), and the block's elements still go through shared memory, but n atomic operations on one address are done one after the other in the L2 cache: far below the reduction's threshold.
// task: atomic
/*
 * reduction.cu (the course's version) with one mistake: sum_atomic skips the
 * tree reduction and lets every thread add its element to the total.
 */
#include "hpc.h"
#include "reduction.h"

/* A power of two: the tree reduction halves it at every step. */
#define BLKDIM 1024

/****************************************************************************
 * (a) naive: thread 0 of each block adds up the block's elements
 ****************************************************************************/

/*
 * Why it is slow, or not as slow as it looks: the copy into temp[] is
 * coalesced (consecutive threads read consecutive ints), which is why the
 * elements go through shared memory at all: thread 0 reading a[] by itself
 * would make BLKDIM separate trips to device memory. But then one thread
 * does BLKDIM - 1 additions in a row while the other BLKDIM - 1 threads of
 * its block only wait, holding their share of the multiprocessor. What
 * saves it on a large array is that other resident blocks load their data
 * meanwhile, and loading n ints from device memory is most of the work.
 */
__global__ void sum_naive_kernel( const int *a, int n, int *d_partial )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;

    /* Threads past the end of a[] store a zero, which does not change the sum. */
    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    if ( 0 == lindex ) {
        int i, my_sum = 0;
        for (i = 0; i < BLKDIM; i++) {
            my_sum += temp[i];
        }
        d_partial[bindex] = my_sum;
    }
}

/*
 * The host's part of (a) and (b): copy the n_blocks partial sums back and
 * add them up. A few thousand ints at most for the sizes of this lab: a
 * small copy and a short loop next to reading n ints on the GPU.
 */
static int add_partial_sums( const int *d_partial, int n_blocks )
{
    const size_t size = n_blocks * sizeof(int);
    int *h_partial = (int *)malloc(size);
    int i, sum = 0;

    cudaSafeCall( cudaMemcpy(h_partial, d_partial, size, cudaMemcpyDeviceToHost) );
    for (i = 0; i < n_blocks; i++) {
        sum += h_partial[i];
    }
    free(h_partial);
    return sum;
}

int sum_naive( const int *d_a, int n )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    int *d_partial, sum;

    cudaSafeCall( cudaMalloc((void **)&d_partial, n_blocks * sizeof(int)) );
    sum_naive_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_partial);
    cudaCheckError();
    sum = add_partial_sums(d_partial, n_blocks);
    cudaSafeCall( cudaFree(d_partial) );
    return sum;
}

/****************************************************************************
 * (b) tree: all the threads of a block cooperate on the block's sum
 ****************************************************************************/

/*
 * Why it is faster, or not: the same BLKDIM - 1 additions per block, but in
 * log2(BLKDIM) = 10 steps instead of BLKDIM - 1: at each step the first
 * bsize threads each add two elements at once. Active threads are
 * contiguous (lindex < bsize), so whole warps drop out together and no warp
 * diverges until bsize < 32; the reads temp[lindex + bsize] of a warp fall
 * in distinct banks. Each step costs a barrier of the whole block, though,
 * and in the last steps most of the block waits at it. Both this kernel and
 * the naive one read each element from device memory once; on a large
 * array that reading dominates, so on a recent GPU the two run at about
 * the same speed: the tree's win is the short critical path inside a block.
 */
__global__ void sum_tree_kernel( const int *a, int n, int *d_partial )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int bsize = blockDim.x / 2;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    /* Every thread runs every step of the loop (bsize is the same for the
       whole block), so every thread reaches every barrier. */
    while ( bsize > 0 ) {
        if ( lindex < bsize ) {
            temp[lindex] += temp[lindex + bsize];
        }
        bsize = bsize / 2;
        __syncthreads();
    }
    if ( 0 == lindex ) {
        d_partial[bindex] = temp[0];
    }
}

int sum_tree( const int *d_a, int n )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    int *d_partial, sum;

    cudaSafeCall( cudaMalloc((void **)&d_partial, n_blocks * sizeof(int)) );
    sum_tree_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_partial);
    cudaCheckError();
    sum = add_partial_sums(d_partial, n_blocks);
    cudaSafeCall( cudaFree(d_partial) );
    return sum;
}

/****************************************************************************
 * (c) atomic: the blocks add their sums into one int on the device
 ****************************************************************************/

/*
 * Why it is slow: n atomicAdd()s on the same address, which the L2 cache
 * performs one after the other (at best one warp's worth at a time, when
 * the compiler combines a warp's additions): the tree made that n / BLKDIM.
 */
__global__ void sum_atomic_kernel( const int *a, int n, int *result )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    /* THE MISTAKE: no tree; every thread adds its element into *result */
    atomicAdd(result, temp[lindex]);
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* *d_sum holds garbage: start from zero. The memset and the kernel go
       to the same (default) stream, so the kernel starts after it. */
    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum_atomic_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}
