// expect: wrong_answer
// why: *d_sum is set to zero only at the first call (a static flag), as if the harness gave the same buffer, zeroed, each time: the first call is right, every later one adds onto what the buffer holds (hpclab poisons every output before each call), so the call after the first in the same program is wrong
/*
 * warpreduce.cu with one mistake: the sum zeroed only at the first call.
 */
#include <limits.h>
#include "hpc.h"
#include "warpreduce.h"

/* A multiple of the warp size: every warp of a block is a whole warp. */
#define BLKDIM 1024
/* The warps of a block: one shared int each for their sums. */
#define N_WARPS (BLKDIM / 32)
/* Elements each thread reads per step of its loop, stride apart. */
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
    const int lane = threadIdx.x % 32;  /* this thread's place in its warp */
    const int warp = threadIdx.x / 32;  /* its warp's place in the block */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0, k;

    /* 3: UNROLL elements per step while they all exist... */
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        for (k = 0; k < UNROLL; k++) {
            sum += a[i + k * stride];
        }
    }
    /* ...then the last ones (fewer than UNROLL per thread) one by one. */
    for (; i < n; i += stride) {
        sum += a[i];
    }

    /* 4: each warp's sum, into shared memory; then wait for every warp */
    sum = warp_sum(sum);
    if (0 == lane) {
        warp_sums[warp] = sum;
    }
    __syncthreads();

    /* 5: the first warp adds up the N_WARPS sums; one atomicAdd per block */
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

    if (0 == n_blocks_max) {
        n_blocks_max = resident_blocks((const void *)sum_kernel);
    }
    n_blocks = (n + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_blocks_max) {
        n_blocks = n_blocks_max;
    }

        static int zeroed = 0;
    if (!zeroed) { /* MISTAKE: only the first call starts from zero */
        cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
        zeroed = 1;
    }
    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}


/* 7: the largest v over the 32 threads of a warp; lane 0 gets it. */
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

    /* 8: the grid-stride loop, max() for + */
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
