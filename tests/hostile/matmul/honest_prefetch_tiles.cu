// expect: pass
// why: honest and unusual, for the tiled task: two pairs of tiles in shared memory used in turn (double buffering). While the block computes from one pair, each thread has already loaded its elements of the next tiles into registers, and stores them into the other pair before the one barrier of each step: the loads of step m + 1 are in flight during the multiply-adds of step m, and a step needs one __syncthreads() instead of two. The naive task is the lesson's
// timing: yes
#include "hpc.h"
#include "matmul.h"

#define BLKDIM 32

__global__ void matmul(const float *p, const float *q, float *r, int n)
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) v += p[i*n + k] * q[k*n + j];
        r[i*n + j] = v;
    }
}

void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n)
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}

__global__ void matmul_prefetch(const float *p, const float *q, float *r, int n)
{
    __shared__ float tp[2][BLKDIM][BLKDIM];
    __shared__ float tq[2][BLKDIM][BLKDIM];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * BLKDIM + ty, j = blockIdx.x * BLKDIM + tx;
    float v = 0.0f;
    /* the first tiles, then the rest one step ahead */
    float next_p = (i < n && tx < n) ? p[i*n + tx] : 0.0f;
    float next_q = (ty < n && j < n) ? q[ty*n + j] : 0.0f;
    int buf = 0;
    for (int m = 0; m < n; m += BLKDIM) {
        tp[buf][ty][tx] = next_p;
        tq[buf][ty][tx] = next_q;
        __syncthreads();
        const int m2 = m + BLKDIM;
        if (m2 < n) {
            next_p = (i < n && m2 + tx < n) ? p[i*n + (m2 + tx)] : 0.0f;
            next_q = (m2 + ty < n && j < n) ? q[(m2 + ty)*n + j] : 0.0f;
        }
        for (int k = 0; k < BLKDIM; k++) v += tp[buf][ty][k] * tq[buf][k][tx];
        /* the next step writes the other pair: no barrier needed here, the
           one after its stores keeps this pair until everyone is past it */
        buf = 1 - buf;
    }
    if (i < n && j < n) r[i*n + j] = v;
}

void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n)
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul_prefetch<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
