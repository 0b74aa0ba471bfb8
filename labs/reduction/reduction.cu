/****************************************************************************
 *
 * reduction.cu - Sum of an array: three ways
 *
 * Based on the course's cuda-reduction0.cu, cuda-reduction1.cu and
 * cuda-reduction3.cu (Moreno Marzolla, "CUDA Programming").
 *
 * A reduction combines n values into one, here their sum. The GPU splits
 * the array into blocks of BLKDIM elements; each block computes the sum of
 * its own elements (a partial sum), and the partial sums are then combined:
 *
 *  (a) sum_naive: the threads of a block copy their elements into shared
 *      memory; after a barrier, thread 0 alone adds them up. Each block
 *      stores its sum into an array of partial sums, which the host copies
 *      back and adds up.
 *  (b) sum_tree: the same, but all the threads of a block cooperate: at
 *      each step half of the remaining threads each add two elements, with
 *      a barrier between steps, until one element holds the block's sum.
 *  (c) sum_atomic: the same tree, then thread 0 of each block adds the
 *      block's sum directly into the result with atomicAdd(): no partial
 *      sums, no work on the host.
 *
 * n is any size: pad the last block's share with zeros (they do not change
 * the sum), and let every thread reach every barrier.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run reduction
 *     hpclab run reduction --n 1000       (any other size)
 *
 ****************************************************************************/
#include "hpc.h"
#include "reduction.h"

/* A power of two: the tree reduction halves it at every step. */
#define BLKDIM 1024

/****************************************************************************
 * (a) naive: thread 0 of each block adds up the block's elements
 ****************************************************************************/

__global__ void sum_naive_kernel( const int *a, int n, int *d_partial )
{
    /* TODO 1: declare temp[], an array of BLKDIM ints in shared memory.
       Each thread copies its element a[gindex], with
       gindex = threadIdx.x + blockIdx.x * blockDim.x, into
       temp[threadIdx.x]; a thread past the end of a[] (gindex >= n)
       stores 0 there instead. */

    /* TODO 2: wait until every thread has stored its element. */

    /* TODO 3: thread 0 adds up temp[0 .. BLKDIM-1] and stores the block's
       sum into d_partial[blockIdx.x]. */
}

/*
 * The host's part of (a) and (b): returns the sum of the n_blocks partial
 * sums that d_partial (device memory) holds.
 */
static int add_partial_sums( const int *d_partial, int n_blocks )
{
    int sum = 0;

    /* TODO 4: allocate room for n_blocks ints on the host (malloc), copy
       the partial sums there from d_partial (cudaMemcpy), add them up into
       sum, and free the host array. */

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

__global__ void sum_tree_kernel( const int *a, int n, int *d_partial )
{
    /* TODO 5: as in TODO 1 and 2: fill temp[] (a zero past the end of a[])
       and wait for every thread. */

    /* TODO 6: the tree. Start with bsize = blockDim.x / 2; while bsize > 0,
       the threads with threadIdx.x < bsize each add
       temp[threadIdx.x + bsize] into temp[threadIdx.x]; then halve bsize
       and wait for every thread before the next step. Careful: the
       barrier must be reached by ALL the threads of the block, not only
       by those that added something. */

    /* TODO 7: thread 0 stores the block's sum, now in temp[0], into
       d_partial[blockIdx.x]. */
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

__global__ void sum_atomic_kernel( const int *a, int n, int *result )
{
    /* TODO 8: the same as sum_tree_kernel (TODO 5 and 6); then thread 0
       adds the block's sum temp[0] into *result with atomicAdd(). A plain
       *result += temp[0] would lose the sums of blocks that do it at the
       same time. */
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* TODO 9: *d_sum holds garbage when this function is called: set it to
       zero (cudaMemset) before the kernel starts adding into it. */

    sum_atomic_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}
