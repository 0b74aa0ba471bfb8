// expect: pass
// why: an honest control for the invariant device_finishes, written on its own: the atomic task uses no atomics at all, but two passes on the device (one kernel writes each block's sum, a second kernel of one block adds those up into *d_sum; the block sums in a __device__ array), so nothing comes back to the host. naive and tree add their block sums on the host, as their lessons do (they opt out of the invariant). It must pass.
#include "hpc.h"
#include "reduction.h"

#define WIDTH 1024

/* Each block's sum of its WIDTH elements, by halving in shared memory. */
__global__ void per_block(const int *src, int len, int *dst)
{
    __shared__ int part[WIDTH];
    const int t = threadIdx.x;
    const size_t at = (size_t)blockIdx.x * WIDTH + t;
    part[t] = at < (size_t)len ? src[at] : 0;
    __syncthreads();
    for (int step = WIDTH / 2; step >= 1; step /= 2) {
        if (t < step) part[t] += part[t + step];
        __syncthreads();
    }
    if (t == 0) dst[blockIdx.x] = part[0];
}

/* One block folds `len` block sums: each thread strides over them, then the same halving. */
__global__ void fold(const int *sums, int len, int *total)
{
    __shared__ int part[WIDTH];
    const int t = threadIdx.x;
    int acc = 0;
    for (int j = t; j < len; j += WIDTH) acc += sums[j];
    part[t] = acc;
    __syncthreads();
    for (int step = WIDTH / 2; step >= 1; step /= 2) {
        if (t < step) part[t] += part[t + step];
        __syncthreads();
    }
    if (t == 0) *total = part[0];
}

/* Thread 0 of each block adds the block's elements one by one. */
__global__ void per_block_serial(const int *src, int len, int *dst)
{
    __shared__ int part[WIDTH];
    const size_t at = (size_t)blockIdx.x * WIDTH + threadIdx.x;
    part[threadIdx.x] = at < (size_t)len ? src[at] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        int acc = 0;
        for (int j = 0; j < WIDTH; j++) acc += part[j];
        dst[blockIdx.x] = acc;
    }
}

static int blocks_for(int n) { return (n + WIDTH - 1) / WIDTH; }

static int on_host(const int *d_sums, int count)
{
    int *h = (int *)malloc(count * sizeof(int)), acc = 0;
    cudaSafeCall(cudaMemcpy(h, d_sums, count * sizeof(int), cudaMemcpyDeviceToHost));
    for (int j = 0; j < count; j++) acc += h[j];
    free(h);
    return acc;
}

int sum_naive(const int *d_a, int n)
{
    int *d_sums, result;
    cudaSafeCall(cudaMalloc((void **)&d_sums, blocks_for(n) * sizeof(int)));
    per_block_serial<<<blocks_for(n), WIDTH>>>(d_a, n, d_sums);
    cudaCheckError();
    result = on_host(d_sums, blocks_for(n));
    cudaSafeCall(cudaFree(d_sums));
    return result;
}

int sum_tree(const int *d_a, int n)
{
    int *d_sums, result;
    cudaSafeCall(cudaMalloc((void **)&d_sums, blocks_for(n) * sizeof(int)));
    per_block<<<blocks_for(n), WIDTH>>>(d_a, n, d_sums);
    cudaCheckError();
    result = on_host(d_sums, blocks_for(n));
    cudaSafeCall(cudaFree(d_sums));
    return result;
}

/* The block sums of the atomic task: room for the largest n (2^30 elements), written whole before each fold. */
__device__ int scratch[(1 << 30) / WIDTH];

void sum_atomic(const int *d_a, int n, int *d_sum)
{
    int *d_sums;
    cudaSafeCall(cudaGetSymbolAddress((void **)&d_sums, scratch));
    per_block<<<blocks_for(n), WIDTH>>>(d_a, n, d_sums);
    cudaCheckError();
    fold<<<1, WIDTH>>>(d_sums, blocks_for(n), d_sum);
    cudaCheckError();
}
