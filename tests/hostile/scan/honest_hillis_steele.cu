// expect: pass
// why: an honest control for the rule one_thread_per and the technique shared_memory, written on its own, not from the solution: each segment scanned by 1024 threads, one element each, with the Hillis-Steele scan (log2(1024) steps, each thread adding the element `step` before it, two buffers in shared memory taking turns): not work-efficient, and right; the whole array by the same segments, their totals scanned the same way in a loop of levels, not a recursion. It must pass.
#include "hpc.h"
#include "scan.h"

enum { W = SEGMENT };

/* Hillis-Steele over one segment; `totals`, when given, gets its last sum. */
__global__ void hs_segments(const int *in, int count, int *out, int *totals)
{
    __shared__ int buf[2][W];
    const long long g = (long long)blockIdx.x * W + threadIdx.x;
    int cur = 0;
    buf[0][threadIdx.x] = g < count ? in[g] : 0;
    __syncthreads();
    for (int step = 1; step < W; step <<= 1) {
        const int mine = buf[cur][threadIdx.x];
        buf[1 - cur][threadIdx.x] = threadIdx.x >= step ? mine + buf[cur][threadIdx.x - step] : mine;
        cur = 1 - cur;
        __syncthreads();
    }
    if (g < count) out[g] = buf[cur][threadIdx.x];
    if (totals && threadIdx.x == W - 1) totals[blockIdx.x] = buf[cur][W - 1];
}

__global__ void hs_add(int *out, int count, const int *prefix)
{
    const long long g = (long long)(blockIdx.x + 1) * W + threadIdx.x;
    if (g < count) out[g] += prefix[blockIdx.x];
}

void scan_blocks(const int *d_a, int n, int *d_b)
{
    hs_segments<<<(n + W - 1) / W, W>>>(d_a, n, d_b, NULL);
    cudaCheckError();
}

/* Levels: level 0 is b itself, level k + 1 the totals of level k's segments. */
void scan(const int *d_a, int n, int *d_b)
{
    int *level[4] = {d_b, NULL, NULL, NULL};
    int count[4] = {n, 0, 0, 0};
    int depth = 0;
    const int *src = d_a;
    while (count[depth] > W) {
        count[depth + 1] = (count[depth] + W - 1) / W;
        cudaSafeCall(cudaMalloc((void **)&level[depth + 1], count[depth + 1] * sizeof(int)));
        hs_segments<<<count[depth + 1], W>>>(src, count[depth], level[depth], level[depth + 1]);
        cudaCheckError();
        src = level[depth + 1];
        depth++;
    }
    hs_segments<<<1, W>>>(src, count[depth], level[depth], NULL);
    cudaCheckError();
    for (int k = depth - 1; k >= 0; k--) {
        if (count[k + 1] > 1) hs_add<<<count[k + 1] - 1, W>>>(level[k], count[k], level[k + 1]);
        cudaCheckError();
        cudaSafeCall(cudaFree(level[k + 1]));
    }
}
