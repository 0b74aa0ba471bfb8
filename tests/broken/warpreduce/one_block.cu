// expect: too_slow
// profile: sm_busy_pct
// why: the grid-stride kernel launched with one block for the whole array: the sum is right and the grid is within the grid check, but one multiprocessor of the GPU reads all of a[]: far below the threshold against the course's tree.
// task: sum
/*
 * warpreduce.cu (the solution) with one mistake: one block for the whole array.
 */
#include <limits.h>
#include "hpc.h"
#include "warpreduce.h"

#define BLKDIM 1024
#define N_WARPS (BLKDIM / 32)
#define UNROLL 8

static int resident_blocks( const void *kernel )
{
    int device, n_sm, per_sm;

    cudaSafeCall( cudaGetDevice(&device) );
    cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
    cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLKDIM, 0) );
    return n_sm * (per_sm > 0 ? per_sm : 1);
}

__device__ int warp_sum( int v )
{
    int offset;
    for (offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__global__ void sum_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_sums[N_WARPS];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0, k;

    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            sum += a[i + k * stride];
        }
    }
    for (; i < n; i += stride) {
        sum += a[i];
    }

    sum = warp_sum(sum);
    if (0 == lane) {
        warp_sums[warp] = sum;
    }
    __syncthreads();
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
    static int n_blocks_max = 0;
    int n_blocks;

    if (0 == n_blocks_max) {
        n_blocks_max = resident_blocks((const void *)sum_kernel);
    }
    n_blocks = (n + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_blocks_max) {
        n_blocks = n_blocks_max;
    }

    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    (void)n_blocks;
    sum_kernel<<<1, BLKDIM>>>(d_a, n, d_sum);  /* MISTAKE: one block */
    cudaCheckError();
}

__device__ int warp_max( int v )
{
    int offset;
    for (offset = 16; offset > 0; offset /= 2) {
        v = max(v, __shfl_down_sync(0xffffffff, v, offset));
    }
    return v;
}

__global__ void max_kernel( const int *a, int n, int *result )
{
    __shared__ int warp_maxes[N_WARPS];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int m = INT_MIN, k;

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

    if (0 == n_blocks_max) {
        n_blocks_max = resident_blocks((const void *)max_kernel);
    }
    n_blocks = (n + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_blocks_max) {
        n_blocks = n_blocks_max;
    }

    cudaSafeCall( cudaMemcpy(d_max, &lowest, sizeof(lowest), cudaMemcpyHostToDevice) );
    max_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_max);
    cudaCheckError();
}
