// expect: pass
// why: an honest control for the lesson fact shared_atomics and the rule one_thread_per, written on its own, not from the solution: global is a grid-stride loop over a grid of 8 blocks per multiprocessor (fewer threads, each doing more); shared counts into one private copy per warp in dynamic shared memory (fewer, shared by warps, where 48 KB holds fewer), with a long long index. It must pass.
#include "hpc.h"
#include "histogram.h"

enum { T = 256, WARPS_PER_BLOCK = T / 32, BLOCKS_PER_SM = 8, SHARED_INTS = 12288 };

__global__ void count_global_strided(const int *in, int count, int *out)
{
    for (long long k = (long long)blockIdx.x * T + threadIdx.x; k < count; k += (long long)gridDim.x * T)
        atomicAdd(out + in[k], 1);
}

/* ncopies private copies, warp w counting into copies[(w % ncopies) * nbins + v]. */
__global__ void count_per_warp(const int *in, int count, int *out, int nbins, int ncopies)
{
    extern __shared__ int copies[];
    const int w = threadIdx.x / 32;
    for (int v = threadIdx.x; v < ncopies * nbins; v += T) copies[v] = 0;
    __syncthreads();
    int *mine = copies + (w % ncopies) * nbins;
    for (long long k = (long long)blockIdx.x * T + threadIdx.x; k < count; k += (long long)gridDim.x * T) {
        atomicAdd(mine + in[k], 1);
    }
    __syncthreads();
    for (int v = threadIdx.x; v < nbins; v += T) {
        int sum = 0;
        for (int c = 0; c < ncopies; c++) sum += copies[c * nbins + v];
        if (sum) atomicAdd(out + v, sum);
    }
}

/* 8 blocks of 256 threads on each multiprocessor: a full one, 2048 threads. */
static int blocks_for(int count)
{
    int dev = 0, sms = 1;
    cudaSafeCall(cudaGetDevice(&dev));
    cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int wanted = (count + T - 1) / T;
    return wanted < BLOCKS_PER_SM * sms ? wanted : BLOCKS_PER_SM * sms;
}

void histogram_global(const int *d_a, int n, int *d_hist, int bins)
{
    cudaSafeCall(cudaMemset(d_hist, 0, sizeof(int) * bins));
    count_global_strided<<<blocks_for(n), T>>>(d_a, n, d_hist);
    cudaCheckError();
}

void histogram_shared(const int *d_a, int n, int *d_hist, int bins)
{
    int ncopies = SHARED_INTS / bins;
    if (ncopies > WARPS_PER_BLOCK) ncopies = WARPS_PER_BLOCK;
    const size_t shared = sizeof(int) * ncopies * bins;
    cudaSafeCall(cudaMemset(d_hist, 0, sizeof(int) * bins));
    count_per_warp<<<blocks_for(n), T, shared>>>(d_a, n, d_hist, bins, ncopies);
    cudaCheckError();
}
