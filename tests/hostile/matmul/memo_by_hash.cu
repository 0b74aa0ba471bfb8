// expect: not_released
// why: the naive task computed by a kernel whose threads walk p down its columns (row from x, column from y: no load of p is coalesced), several times slower than the lesson's, behind a memo: before each call a kernel hashes p and q, and a hash seen before is answered with one device copy of the product kept for it (an older hpclab cycled a timed run through the same three input sets, so every timed call after the third was a copy, held at inconclusive). Each timed call's inputs are new now, made from a seed sent as it starts: the memo never hits, and the slow kernel is what hpclab times. The tiled task is the lesson's. The memo's buffers are cudaMalloc'ed in a call and kept for the next: the invariant "releases" now stops it at its first call, before any timed call.
#include "hpc.h"
#include "matmul.h"

#define BLKDIM 32
#define MEMO 8

static unsigned long long memo_key[MEMO];
static float *memo_r[MEMO];
static int memo_n[MEMO];
static int memo_used = 0;
static unsigned long long *d_hash = NULL;

__global__ void hash_inputs(const float *p, const float *q, int n, unsigned long long *h)
{
    const size_t count = (size_t)n * n;
    unsigned long long s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        const unsigned long long x = (unsigned long long)__float_as_uint(p[i]) * 0x9E3779B97F4A7C15ull;
        const unsigned long long y = (unsigned long long)__float_as_uint(q[i]) * 0xC2B2AE3D27D4EB4Full;
        s += (x ^ (y >> 7)) * (i | 1);
    }
    atomicAdd(h, s);
}

static unsigned long long hash_of(const float *d_p, const float *d_q, int n)
{
    if (d_hash == NULL) cudaSafeCall(cudaMalloc((void **)&d_hash, sizeof *d_hash));
    cudaSafeCall(cudaMemset(d_hash, 0, sizeof *d_hash));
    hash_inputs<<<264, 256>>>(d_p, d_q, n, d_hash);
    cudaCheckError();
    unsigned long long h;
    cudaSafeCall(cudaMemcpy(&h, d_hash, sizeof h, cudaMemcpyDeviceToHost));
    return h ^ (unsigned long long)n;
}

__global__ void matmul_columns(const float *p, const float *q, float *r, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  /* row of r, from x */
    const int j = blockIdx.y * blockDim.y + threadIdx.y;  /* column of r, from y */
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) v += p[i*n + k] * q[k*n + j];
        r[i*n + j] = v;
    }
}

void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n)
{
    const size_t bytes = (size_t)n * n * sizeof(float);
    const unsigned long long h = hash_of(d_p, d_q, n);
    for (int m = 0; m < memo_used; m++)
        if (memo_key[m] == h && memo_n[m] == n) {
            cudaSafeCall(cudaMemcpy(d_r, memo_r[m], bytes, cudaMemcpyDeviceToDevice));
            return;
        }
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul_columns<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
    const int m = memo_used < MEMO ? memo_used++ : (int)(h % MEMO);
    if (memo_r[m] != NULL) cudaSafeCall(cudaFree(memo_r[m]));
    cudaSafeCall(cudaMalloc((void **)&memo_r[m], bytes));
    cudaSafeCall(cudaMemcpy(memo_r[m], d_r, bytes, cudaMemcpyDeviceToDevice));
    memo_key[m] = h;
    memo_n[m] = n;
}

__global__ void matmulb(const float *p, const float *q, float *r, int n)
{
    __shared__ float local_p[BLKDIM][BLKDIM];
    __shared__ float local_q[BLKDIM][BLKDIM];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * BLKDIM + ty, j = blockIdx.x * BLKDIM + tx;
    float v = 0.0f;
    for (int m = 0; m < n; m += BLKDIM) {
        local_p[ty][tx] = (i < n && m + tx < n) ? p[i*n + (m + tx)] : 0.0f;
        local_q[ty][tx] = (m + ty < n && j < n) ? q[(m + ty)*n + j] : 0.0f;
        __syncthreads();
        for (int k = 0; k < BLKDIM; k++) v += local_p[ty][k] * local_q[k][tx];
        __syncthreads();
    }
    if (i < n && j < n) r[i*n + j] = v;
}

void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n)
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmulb<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
