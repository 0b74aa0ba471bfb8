// hpclab-bench: kind=reference tasks=naive,tree,atomic title="Tuned reference: the course's naive and tree, a one-pass atomic sum"
// The speed baseline that labs/reduction/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. naive and tree are the course's kernels, as in the solution
// (solutions/reduction/reduction.cu); atomic reads a[] in one pass, 8 loads in flight a thread.
/****************************************************************************
 *
 * tuned.cu - reduction, the tuned reference: a one-pass atomic sum
 *
 * Based on the course's cuda-reduction0.cu, cuda-reduction1.cu and
 * cuda-reduction3.cu (Moreno Marzolla, "CUDA Programming").
 *
 * Check it:  hpclab check reduction --file bench/reduction/tuned.cu
 * Time it:   hpclab bench reduction --variants solution,tuned
 *
 ****************************************************************************/
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
 * (c) atomic: the blocks add their sums into one int on the device, in a
 *     single pass. The course's version (the tree of (b), then one
 *     atomicAdd() per block of 1024 elements) is the solution's,
 *     solutions/reduction/reduction.cu.
 ****************************************************************************/

/*
 * The sum of v over the 32 threads of a warp, with register shuffles: at
 * each of the 5 steps every thread adds the value of the thread `offset`
 * lanes above it (__shfl_down_sync reads another thread's register
 * directly: no shared memory, no barrier). Lane 0 ends up with the total.
 */
__device__ int warp_sum( int v )
{
    int offset;
    for (offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

/* Elements each thread reads per step of its loop, stride apart. */
#define UNROLL 8

/*
 * One pass over a[], with a grid that just fills the GPU: thread t of the
 * grid (stride threads in all) adds up a[t], a[t + stride], a[t + 2*stride],
 * ... in a register; then each warp adds up its 32 sums with shuffles, the
 * warps' sums meet in shared memory (BLKDIM / 32 ints), the first warp adds
 * them up, and its lane 0 adds the block's sum into *result with a single
 * atomicAdd().
 *
 * Why it is fast: this is a pure read of n ints, so the best it can do is
 * the device's read bandwidth, and the work is arranged to get there:
 * - at each step of the loop a warp reads 32 consecutive ints (coalesced),
 *   and each thread issues UNROLL = 8 independent loads before it needs
 *   any of them: enough bytes in flight to cover the latency of device
 *   memory, where one element per thread (the tree above) leaves it idle;
 * - the additions happen in registers: no shared memory traffic and no
 *   barrier per element, only one barrier per block at the very end (the
 *   tree above has 10 of them for 1024 elements);
 * - the grid has just as many blocks as the GPU holds at once (2 blocks of
 *   1024 threads per multiprocessor on an H100, 264 in all), so there are
 *   only a few hundred atomicAdd() calls, and no block waits for a free
 *   multiprocessor.
 * Expected: close to CUB's DeviceReduce::Sum, which works the same way.
 *
 * The indices are size_t: i + 7 * stride would pass 2^31 for n close to it.
 */
__global__ void sum_atomic_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_sums[BLKDIM / 32];
    const int lane = threadIdx.x % 32;  /* this thread's place in its warp */
    const int warp = threadIdx.x / 32;  /* its warp's place in the block */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0, k;

    /* UNROLL elements per step while they all exist... */
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            sum += a[i + k * stride];
        }
    }
    /* ...then the last ones (fewer than UNROLL per thread) one by one. */
    for (; i < n; i += stride) {
        sum += a[i];
    }

    sum = warp_sum(sum);
    if (0 == lane) {
        warp_sums[warp] = sum;
    }
    __syncthreads();  /* every warp's sum is in warp_sums[] */
    if (0 == warp) {
        sum = (lane < blockDim.x / 32 ? warp_sums[lane] : 0);
        sum = warp_sum(sum);
        if (0 == lane) {
            atomicAdd(result, sum);
        }
    }
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    static int n_resident = 0;  /* blocks the GPU runs at once, found on the first call */
    int n_blocks = (n + BLKDIM - 1) / BLKDIM;  /* one element per thread at most */

    /* As many blocks as the GPU runs at once: the blocks of BLKDIM threads
       that fit on one multiprocessor (their registers and shared memory
       decide: 2 on an H100), times the multiprocessors. Fewer when n is
       small. */
    if (n_resident == 0) {
        int device, n_sm, per_sm;
        cudaSafeCall( cudaGetDevice(&device) );
        cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
        cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_atomic_kernel, BLKDIM, 0) );
        n_resident = n_sm * (per_sm > 0 ? per_sm : 1);
    }
    if (n_blocks > n_resident) {
        n_blocks = n_resident;
    }

    /* *d_sum holds garbage: start from zero. The memset and the kernel go
       to the same (default) stream, so the kernel starts after it. */
    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum_atomic_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}
