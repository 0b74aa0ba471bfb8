// expect: pass
// why: an honest control for the rule one_thread_per (an upper bound): written on its own, not from the solution. In the tree task each thread adds two elements as it loads them (the first step of Harris's "reduction #4"), so the grid is half the lesson's, (n + 2*T - 1) / (2*T) blocks; fewer threads that each do more keep to the rule. The naive task is one thread per element adding up its block in thread 0, the atomic task a tree per block and one atomicAdd. It must pass.
#include "hpc.h"
#include "reduction.h"

enum { T = 1024 };

/* one partial sum per block, thread 0 adding up the block's cache */
__global__ void block_sums_serial(const int *in, int count, int *sums)
{
    __shared__ int cache[T];
    const long long g = (long long)blockIdx.x * T + threadIdx.x;
    cache[threadIdx.x] = g < count ? in[g] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < T; ++k) s += cache[k];
        sums[blockIdx.x] = s;
    }
}

/* halving steps over a cache filled with two elements per thread (per_thread = 2), or one */
__global__ void block_sums_tree(const int *in, int count, int per_thread, int *out, int atomic)
{
    __shared__ int cache[T];
    const long long first = (long long)blockIdx.x * T * per_thread + threadIdx.x;
    int v = 0;
    for (int k = 0; k < per_thread; ++k) {
        const long long g = first + (long long)k * T;
        if (g < count) v += in[g];
    }
    cache[threadIdx.x] = v;
    __syncthreads();
    for (int half = T / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) cache[threadIdx.x] += cache[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        if (atomic) atomicAdd(out, cache[0]);
        else out[blockIdx.x] = cache[0];
    }
}

static int host_total(const int *d_sums, int blocks)
{
    int *h = (int *)malloc(blocks * sizeof(int));
    cudaSafeCall(cudaMemcpy(h, d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int total = 0;
    for (int b = 0; b < blocks; ++b) total += h[b];
    free(h);
    return total;
}

int sum_naive(const int *d_a, int n)
{
    const int blocks = (n + T - 1) / T;
    int *d_sums;
    cudaSafeCall(cudaMalloc((void **)&d_sums, blocks * sizeof(int)));
    block_sums_serial<<<blocks, T>>>(d_a, n, d_sums);
    cudaCheckError();
    const int total = host_total(d_sums, blocks);
    cudaSafeCall(cudaFree(d_sums));
    return total;
}

int sum_tree(const int *d_a, int n)
{
    const int blocks = (n + 2 * T - 1) / (2 * T);  /* two elements a thread */
    int *d_sums;
    cudaSafeCall(cudaMalloc((void **)&d_sums, blocks * sizeof(int)));
    block_sums_tree<<<blocks, T>>>(d_a, n, 2, d_sums, 0);
    cudaCheckError();
    const int total = host_total(d_sums, blocks);
    cudaSafeCall(cudaFree(d_sums));
    return total;
}

void sum_atomic(const int *d_a, int n, int *d_sum)
{
    cudaSafeCall(cudaMemset(d_sum, 0, sizeof(int)));
    block_sums_tree<<<(n + T - 1) / T, T>>>(d_a, n, 1, d_sum, 1);
    cudaCheckError();
}
