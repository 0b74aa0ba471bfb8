/****************************************************************************
 *
 * warpreduce.cu - A one-pass reduction with warp shuffles (solution)
 *
 * After the course's cuda-reduction3.cu and its slides on atomic functions
 * (Moreno Marzolla, "CUDA Programming"), and the warp shuffle functions of
 * the CUDA C++ Programming Guide.
 *
 * Run it:  hpclab run warpreduce --solution
 *
 ****************************************************************************/
#include <limits.h>
#include "hpc.h"
#include "warpreduce.h"

/* A multiple of the warp size: every warp of a block is a whole warp. */
#define BLKDIM 1024
/* The warps of a block: one shared int each for their sums. */
#define N_WARPS (BLKDIM / 32)
/* Elements each thread reads per step of its loop, stride apart. */
#define UNROLL 8

/****************************************************************************
 * The grid: as many blocks as the GPU runs at once
 ****************************************************************************/

/*
 * The blocks of BLKDIM threads of `kernel` that fit on one
 * multiprocessor at once (their registers and shared memory decide: 2 on
 * an H100) times the multiprocessors. The callers ask once and keep it, and
 * launch fewer blocks when n is small (one element per thread at most). A
 * grid of n / BLKDIM blocks would work too, but its blocks would wait for
 * free multiprocessors and each would add one atomic: the grid-stride loop
 * below lets the threads already running take the rest of the array.
 */
static int resident_blocks( const void *kernel )
{
    int device, n_sm, per_sm;

    cudaSafeCall( cudaGetDevice(&device) );
    cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
    cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLKDIM, 0) );
    return n_sm * (per_sm > 0 ? per_sm : 1);
}

/****************************************************************************
 * (a) sum
 ****************************************************************************/

/*
 * 1: the sum of v over the 32 threads of a warp, in registers: at each of
 * the 5 steps every thread adds the value of the thread `offset` lanes
 * above it (__shfl_down_sync reads another thread's register directly: no
 * shared memory, no barrier). Lane 0 ends up with the total. The mask
 * 0xffffffff says all 32 lanes take part: every thread of a block of
 * BLKDIM calls it, with a 0 when it had no element.
 */
__device__ int warp_sum( int v )
{
    int offset;
    for (offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

/*
 * Why it is fast: a sum reads n ints once, so the best it can do is the
 * device's read bandwidth, and the work is arranged to get there:
 * - 2: thread t of the grid (stride threads in all) adds up a[t],
 *   a[t + stride], a[t + 2 * stride], ... in a register. At each step a
 *   warp reads 32 consecutive ints (coalesced), and each thread issues
 *   UNROLL = 8 independent loads before it needs any of them: enough bytes
 *   in flight to hide the latency of device memory, where one element per
 *   thread (the course's tree) leaves it idle between blocks;
 * - 3: the additions of a block happen in registers, warp by warp; only the
 *   32 warps' sums go through shared memory, with one barrier, where the
 *   course's tree has 10 barriers per 1024 elements;
 * - 4: the first warp adds up the warps' sums and its lane 0 makes the
 *   block's single atomicAdd(): a few hundred in all, one per block of a
 *   grid that just fills the GPU, instead of one per 1024 elements.
 * Expected: close to CUB's DeviceReduce::Sum, which works the same way.
 *
 * The indices are size_t: i + 7 * stride would pass 2^31 for n close to it.
 */
__global__ void sum_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_sums[N_WARPS];
    const int lane = threadIdx.x % 32;  /* this thread's place in its warp */
    const int warp = threadIdx.x / 32;  /* its warp's place in the block */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0, k;

    /* 2: UNROLL elements per step while they all exist... */
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            sum += a[i + k * stride];
        }
    }
    /* ...then the last ones (fewer than UNROLL per thread) one by one. */
    for (; i < n; i += stride) {
        sum += a[i];
    }

    /* 3: each warp's sum, into shared memory; then wait for every warp */
    sum = warp_sum(sum);
    if (0 == lane) {
        warp_sums[warp] = sum;
    }
    __syncthreads();

    /* 4: the first warp adds up the N_WARPS sums; one atomicAdd per block */
    if (0 == warp) {
        sum = (lane < N_WARPS ? warp_sums[lane] : 0);
        sum = warp_sum(sum);
        if (0 == lane) {
            atomicAdd(result, sum);
        }
    }
}

void reduce_sum( const int *d_a, int n, int *d_sum )
{
    static int n_blocks_max = 0;  /* the grid that fills the GPU, found on the first call */
    int n_blocks;

    /* 5: no more blocks than the GPU runs at once (asked on the first
       call, kept in a static), fewer when n is small... */
    if (0 == n_blocks_max) {
        n_blocks_max = resident_blocks((const void *)sum_kernel);
    }
    n_blocks = (n + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_blocks_max) {
        n_blocks = n_blocks_max;
    }

    /* ...and *d_sum holds garbage: start from zero. The memset and the
       kernel go to the same (default) stream, so the kernel starts after it. */
    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}

/****************************************************************************
 * (b) max
 ****************************************************************************/

/* 6: the largest v over the 32 threads of a warp; lane 0 gets it. */
__device__ int warp_max( int v )
{
    int offset;
    for (offset = 16; offset > 0; offset /= 2) {
        v = max(v, __shfl_down_sync(0xffffffff, v, offset));
    }
    return v;
}

/*
 * The same kernel as sum_kernel with max() for +, and INT_MIN where the sum
 * has 0: the neutral element of max, which any value of a[] replaces. A
 * thread with no element offers INT_MIN; with 0 instead, an array of
 * negative values would come out 0. Fast for the same reasons: one pass,
 * 8 loads in flight a thread, one barrier and one atomicMax() per block.
 */
__global__ void max_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_maxes[N_WARPS];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int m = INT_MIN, k;

    /* 7: sum_kernel's grid-stride loop, max() for + */
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            m = max(m, a[i + k * stride]);
        }
    }
    for (; i < n; i += stride) {
        m = max(m, a[i]);
    }

    m = warp_max(m);
    if (0 == lane) {
        warp_maxes[warp] = m;
    }
    __syncthreads();
    if (0 == warp) {
        m = (lane < N_WARPS ? warp_maxes[lane] : INT_MIN);
        m = warp_max(m);
        if (0 == lane) {
            atomicMax(result, m);
        }
    }
}

void reduce_max( const int *d_a, int n, int *d_max )
{
    static int n_blocks_max = 0;
    const int lowest = INT_MIN;
    int n_blocks;

    /* 8: the grid of 5, for max_kernel... */
    if (0 == n_blocks_max) {
        n_blocks_max = resident_blocks((const void *)max_kernel);
    }
    n_blocks = (n + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_blocks_max) {
        n_blocks = n_blocks_max;
    }

    /* ...and *d_max holds garbage: start from INT_MIN, which cudaMemset
       cannot write (it sets bytes: 0x80000000 is not one byte repeated), so
       copy it from the host. */
    cudaSafeCall( cudaMemcpy(d_max, &lowest, sizeof(lowest), cudaMemcpyHostToDevice) );
    max_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_max);
    cudaCheckError();
}
