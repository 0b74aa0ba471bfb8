/****************************************************************************
 *
 * warpreduce.cu - A one-pass reduction with warp shuffles
 *
 * After the course's cuda-reduction3.cu and its slides on atomic functions
 * (Moreno Marzolla, "CUDA Programming"), and the warp shuffle functions of
 * the CUDA C++ Programming Guide.
 *
 * The course's atomic reduction gives each block 1024 elements, one per
 * thread, reduces them with a tree in shared memory (10 barriers) and adds
 * the block's sum with one atomicAdd(). This lab does the same work in one
 * pass the way tuned libraries do:
 *
 *  - a grid that just fills the GPU (the blocks it runs at once), each
 *    thread adding up many elements in a register with a grid-stride
 *    loop, several loads in flight;
 *  - each warp adds up its 32 threads' sums in registers with
 *    __shfl_down_sync(), no shared memory, no barrier;
 *  - the warps' sums meet in shared memory (one barrier), the first warp
 *    adds them up, and one atomicAdd() per block finishes the job.
 *
 * Then the same for the maximum, with atomicMax() (slide 108).
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run warpreduce
 *     hpclab run warpreduce --n 1000       (any other size)
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

/*
 * The blocks of BLKDIM threads of `kernel` that fit on the GPU at once: those
 * one multiprocessor holds (2 on an H100) times the multiprocessors.
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

/* The sum of v over the 32 threads of a warp; lane 0 gets the total. */
__device__ int warp_sum( int v )
{
    /* TODO 1: for offset = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff,
       v, offset). Every lane of the warp must make every call (the mask
       0xffffffff says all 32 take part). */
    return v;
}

__global__ void sum_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_sums[N_WARPS];
    const int lane = threadIdx.x % 32;  /* this thread's place in its warp */
    const int warp = threadIdx.x / 32;  /* its warp's place in the block */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0;

    /* TODO 2: the grid-stride loop. Add a[i], a[i + stride],
       a[i + 2 * stride], ... into sum while i < n: UNROLL of them per step
       while i + (UNROLL - 1) * stride < n (independent loads, all in flight
       at once), then the last ones one by one. Keep i a size_t. */

    /* TODO 3: sum = warp_sum(sum); lane 0 of each warp stores it into
       warp_sums[warp]. Then wait until every warp has stored its sum. */

    /* TODO 4: the first warp (warp == 0) adds up the N_WARPS sums with
       warp_sum (a lane past N_WARPS offers 0), and its lane 0 adds the
       block's sum into *result with atomicAdd(). */
}

void reduce_sum( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;  /* one element per thread at most */

    /* TODO 5: launch no more blocks than the GPU runs at once:
       resident_blocks((const void *)sum_kernel), asked on the first call
       and kept in a static. And *d_sum holds garbage: set it to zero
       (cudaMemset) before the kernel adds into it. */

    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}

/****************************************************************************
 * (b) max
 ****************************************************************************/

/* The largest v over the 32 threads of a warp; lane 0 gets it. */
__device__ int warp_max( int v )
{
    /* TODO 6: as warp_sum, with v = max(v, __shfl_down_sync(...)). */
    return v;
}

__global__ void max_kernel( const int *a, int n, int *result )
{
    /* TODO 7: sum_kernel with max() for + and atomicMax() for atomicAdd().
       Where the sum starts from 0, start from INT_MIN: every value of a[]
       may be negative, so a thread with no element must offer INT_MIN. */
}

void reduce_max( const int *d_a, int n, int *d_max )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* TODO 8: the grid of TODO 5, for max_kernel. *d_max holds garbage: set
       it to INT_MIN first. cudaMemset cannot (it writes one byte value
       everywhere), so copy an int holding INT_MIN from the host
       (cudaMemcpy). */

    max_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_max);
    cudaCheckError();
}
