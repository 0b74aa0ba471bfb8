// expect: too_slow
// profile: atomics_per_block
// why: no warp sums: every element is atomicAdd()ed into *d_sum inside the grid-stride loop. The sum is right, and the compiler combines each warp's atomics into one (a REDUX warp reduction on sm_80 and up, which the warp_shuffle rule accepts), but that is still n / 32 atomics on one address, done one after the other in the L2 cache: far below the threshold against the course's tree.
// task: sum
/*
 * warpreduce.cu (the solution) with one mistake: an atomicAdd() per element, no warp sums.
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
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

    /* MISTAKE: one atomicAdd() per element, no sums in registers */
    for (; i < n; i += stride) {
        atomicAdd(result, a[i]);
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
    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
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
