// hpclab-bench: kind=further tasks=atomic title="Going further: the one-pass reduction with int4 loads"
/****************************************************************************
 *
 * vectorized.cu - reduction, going further: vector loads (int4)
 *
 * Not part of the lesson: a benchmark variant. The tuned reference's
 * atomic task (bench/reduction/tuned.cu) reads one int per load
 * instruction; this one reads an int4, four ints (16 bytes), per load,
 * as CUB does. The rest is the same: a grid that just fills the GPU, a
 * grid-stride loop, warp shuffles, one atomicAdd() per block.
 *
 * sum_naive and sum_tree (not benchmarked in this variant) use the same
 * kernel and copy the result back to the host.
 *
 ****************************************************************************/
#include <stdint.h>
#include "hpc.h"
#include "reduction.h"

#define BLKDIM 1024
#define UNROLL 4  /* int4 loads in flight per thread */

/* The sum of v over the 32 threads of a warp; lane 0 gets the total. */
__device__ int warp_total( int v )
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

/*
 * Thread t of the grid (stride threads in all) adds up the int4 a4[t],
 * a4[t + stride], ..., UNROLL of them per step, then the ints from 4 * n4
 * to n - 1 one by one (the n % 4 left over, or all of them when the host
 * found d_a not 16-byte aligned and passed n4 = 0). Then the block's sum
 * goes through warp shuffles and shared memory into one atomicAdd().
 *
 * Why it is fast: a pure read, so the read bandwidth bounds it. Each load
 * instruction brings 16 bytes, and each thread has UNROLL = 4 of them (64
 * bytes) in flight: the same bytes in flight as tuned.cu's 8 int
 * loads with half the instructions, and four times the bytes per
 * instruction of the lesson's kernels. __launch_bounds__(BLKDIM, 2) keeps
 * it within 32 registers per thread, so that two blocks of 1024 threads
 * fit on a multiprocessor.
 */
__global__ void __launch_bounds__(BLKDIM, 2) sum4_kernel( const int *a, size_t n4, int n, int *result )
{
    __shared__ int warp_sums[BLKDIM / 32];
    const int4 *a4 = (const int4 *)a;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i = t;
    int sum = 0, k;

    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            const int4 v = a4[i + k * stride];
            sum += v.x + v.y + v.z + v.w;
        }
    }
    for (; i < n4; i += stride) {
        const int4 v = a4[i];
        sum += v.x + v.y + v.z + v.w;
    }
    for (i = 4 * n4 + t; i < n; i += stride) {
        sum += a[i];
    }

    sum = warp_total(sum);
    if (0 == lane) {
        warp_sums[warp] = sum;
    }
    __syncthreads();
    if (0 == warp) {
        sum = (lane < blockDim.x / 32 ? warp_sums[lane] : 0);
        sum = warp_total(sum);
        if (0 == lane) {
            atomicAdd(result, sum);
        }
    }
}

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    const size_t n4 = ((uintptr_t)d_a % 16 == 0 ? n / 4 : 0);
    static int n_resident = 0;  /* blocks the GPU runs at once, found on the first call */
    int n_blocks = (n + 4 * BLKDIM - 1) / (4 * BLKDIM);  /* at least one int4 per thread */

    /* As many blocks as the GPU runs at once: the blocks of BLKDIM threads
       that fit on one multiprocessor (their registers and shared memory
       decide: 2 on an H100), times the multiprocessors. Fewer when n is
       small. */
    if (n_resident == 0) {
        int device, n_sm, per_sm;
        cudaSafeCall( cudaGetDevice(&device) );
        cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
        cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum4_kernel, BLKDIM, 0) );
        n_resident = n_sm * (per_sm > 0 ? per_sm : 1);
    }
    if (n_blocks > n_resident) {
        n_blocks = n_resident;
    }
    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum4_kernel<<<n_blocks, BLKDIM>>>(d_a, n4, n, d_sum);
    cudaCheckError();
}

/* The total through sum_atomic, copied back to the host. */
static int sum_to_host( const int *d_a, int n )
{
    int *d_sum, sum;

    cudaSafeCall( cudaMalloc((void **)&d_sum, sizeof(int)) );
    sum_atomic(d_a, n, d_sum);
    cudaSafeCall( cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_sum) );
    return sum;
}

int sum_naive( const int *d_a, int n )
{
    return sum_to_host(d_a, n);
}

int sum_tree( const int *d_a, int n )
{
    return sum_to_host(d_a, n);
}
