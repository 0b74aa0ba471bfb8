// expect: pass
// why: honest and unusual, for the atomic task: a persistent grid (a few blocks per SM) whose threads stride over the input with several loads in flight, sum warps with __shfl_down_sync, the warps' sums through shared memory to one warp, and add one value per block into *d_sum with atomicAdd; the other tasks as the lesson does them (the solution's code). Far from the lesson's launch shape, and faster
// timing: yes
#include "hpc.h"
#include "reduction.h"

#include <stdio.h>
#include <stdlib.h>

#define BLKDIM 1024

__global__ void sum_naive_kernel(const int *a, int n, int *d_sums)
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    temp[lindex] = gindex < n ? a[gindex] : 0;
    __syncthreads();
    if (lindex == 0) {
        int s = 0;
        for (int i = 0; i < blockDim.x; i++) s += temp[i];
        d_sums[blockIdx.x] = s;
    }
}

__global__ void sum_tree_kernel(const int *a, int n, int *d_sums)
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    temp[lindex] = gindex < n ? a[gindex] : 0;
    __syncthreads();
    for (int bsize = blockDim.x / 2; bsize > 0; bsize /= 2) {
        if (lindex < bsize) temp[lindex] += temp[lindex + bsize];
        __syncthreads();
    }
    if (lindex == 0) d_sums[blockIdx.x] = temp[0];
}

static int sum_with(void (*kernel)(const int *, int, int *), const int *d_a, int n)
{
    const int blocks = (n + BLKDIM - 1) / BLKDIM;
    int *d_sums, *h_sums = (int *)malloc(blocks * sizeof(int)), total = 0;
    cudaSafeCall(cudaMalloc((void **)&d_sums, blocks * sizeof(int)));
    kernel<<<blocks, BLKDIM>>>(d_a, n, d_sums);
    cudaCheckError();
    cudaSafeCall(cudaMemcpy(h_sums, d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) total += h_sums[b];
    cudaSafeCall(cudaFree(d_sums));
    free(h_sums);
    return total;
}

int sum_naive(const int *d_a, int n) { return sum_with(sum_naive_kernel, d_a, n); }
int sum_tree(const int *d_a, int n) { return sum_with(sum_tree_kernel, d_a, n); }

__global__ void sum_persistent(const int *a, int n, int *d_sum)
{
    __shared__ int warp_sums[32];
    int mine = 0;
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) mine += a[i] + a[i + stride] + a[i + 2 * stride] + a[i + 3 * stride];
    for (; i < n; i += stride) mine += a[i];
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x / 32] = mine;
    __syncthreads();
    if (threadIdx.x < 32) {
        mine = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
        for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
        if (threadIdx.x == 0) atomicAdd(d_sum, mine);
    }
}

void sum_atomic(const int *d_a, int n, int *d_sum)
{
    int device = 0, sms = 0;
    cudaSafeCall(cudaGetDevice(&device));
    cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cudaSafeCall(cudaMemset(d_sum, 0, sizeof(int)));
    int blocks = 4 * sms;
    const int needed = (n + 255) / 256;
    if (blocks > needed) blocks = needed;
    sum_persistent<<<blocks, 256>>>(d_a, n, d_sum);
    cudaCheckError();
}
