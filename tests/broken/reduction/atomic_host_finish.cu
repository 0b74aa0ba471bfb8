// expect: not_on_gpu
// why: sum_atomic runs sum_tree's kernel and adds up the blocks' partial sums on the host, then copies the total into *d_sum (the other tasks are the lesson's): the sum is right and a kernel with shared memory runs, but the call copies 4 bytes a block back to the host where the task's output stays on the device (device_finishes), from n = 1000003 (977 blocks)
/*
 * reduction.cu with one mistake in sum_atomic: the host finishes the sum.
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
    /* 1: each thread copies its element into the block's temp[]; threads
       past the end of a[] store a zero, which does not change the sum. */
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;

    temp[lindex] = (gindex < n ? a[gindex] : 0);

    /* 2: wait until every element is in temp[] */
    __syncthreads();

    /* 3: thread 0 alone adds them up */
    if ( 0 == lindex ) {
        int i, my_sum = 0;
        for (i = 0; i < BLKDIM; i++) {
            my_sum += temp[i];
        }
        d_partial[bindex] = my_sum;
    }
}

/*
 * The host's part of (a) and (b): returns the sum of the n_blocks partial
 * sums that d_partial (device memory) holds. A few thousand ints at most
 * for the sizes of this lab (one per 1024 elements): a small copy and a
 * short loop next to reading n ints on the GPU.
 */
static int add_partial_sums( const int *d_partial, int n_blocks )
{
    int sum = 0;

    /* 4: the partial sums to the host, added up there. cudaMemcpy waits
       for the kernel that wrote them. */
    const size_t size = n_blocks * sizeof(int);
    int *h_partial = (int *)malloc(size);
    int i;

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
    /* 5: as in the naive kernel: temp[] filled, zeros past the end */
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int bsize = blockDim.x / 2;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();

    /* 6: the tree. Every thread runs every step of the loop (bsize is the
       same for the whole block), so every thread reaches every barrier. */
    while ( bsize > 0 ) {
        if ( lindex < bsize ) {
            temp[lindex] += temp[lindex + bsize];
        }
        bsize = bsize / 2;
        __syncthreads();
    }

    /* 7: the block's sum is in temp[0] */
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
 * Why it is fast: the same tree inside each block, and then a single
 * atomicAdd() per block, n / BLKDIM of them, on one address. Atomics on
 * the same address are serialised (in the L2 cache), but there are few of
 * them and blocks finish at different times, so they hardly ever wait.
 * What this version saves is around the kernel: no array of partial sums
 * to allocate and free, no copy back and no loop on the host.
 *
 * Why it is not faster still: one element per thread, as in (a) and (b),
 * leaves the memory idle part of the time, and the tree costs 10 barriers
 * per block. The speed baseline, bench/reduction/tuned.cu, reads a[] in a
 * single pass with a grid that just fills the GPU: each thread adds up
 * many elements in a register with 8 loads in flight, and the warps add up
 * their sums with register shuffles.
 */
__global__ void sum_atomic_kernel( const int *a, int n, int *result )
{
    /* 8: the tree of sum_tree_kernel... */
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int bsize = blockDim.x / 2;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    while ( bsize > 0 ) {
        if ( lindex < bsize ) {
            temp[lindex] += temp[lindex + bsize];
        }
        bsize = bsize / 2;
        __syncthreads();
    }
    /* ...and one atomicAdd() per block: a plain *result += temp[0] would
       lose the sums of blocks that add at the same moment. */
    if ( 0 == lindex ) {
        atomicAdd(result, temp[0]);
    }
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    int *d_partial, sum;

    /* MISTAKE: sum_tree's partial sums, added up on the host and the total
       copied into *d_sum, instead of
       cudaMemset(d_sum, 0, sizeof(*d_sum));
       sum_atomic_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum); */
    cudaSafeCall( cudaMalloc((void **)&d_partial, n_blocks * sizeof(int)) );
    sum_tree_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_partial);
    cudaCheckError();
    sum = add_partial_sums(d_partial, n_blocks);
    cudaSafeCall( cudaFree(d_partial) );
    cudaSafeCall( cudaMemcpy(d_sum, &sum, sizeof(sum), cudaMemcpyHostToDevice) );
}
