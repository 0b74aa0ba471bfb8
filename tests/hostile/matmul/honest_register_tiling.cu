// expect: pass
// why: honest and unusual, for the tiled task: 32 x 32 tiles of p and q in shared memory as the lesson has them, but a block of 32 x 8 threads, each computing four elements of r (rows ty, ty + 8, ty + 16, ty + 24 of the tile) held in registers: each value of q's tile read from shared memory serves four multiply-adds. A quarter of the lesson's threads, a launch shape of its own, and faster. The naive task is the lesson's
// timing: yes
#include "hpc.h"
#include "matmul.h"

#define BLKDIM 32
#define ROWS 8  /* threads along y; each computes BLKDIM / ROWS = 4 rows */

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

__global__ void matmul_rt(const float *p, const float *q, float *r, int n)
{
    __shared__ float tp[BLKDIM][BLKDIM];
    __shared__ float tq[BLKDIM][BLKDIM];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = blockIdx.y * BLKDIM, j = blockIdx.x * BLKDIM + tx;
    float v[BLKDIM / ROWS] = {0.0f};
    for (int m = 0; m < n; m += BLKDIM) {
        for (int s = 0; s < BLKDIM / ROWS; s++) {
            const int row = ty + s * ROWS;
            tp[row][tx] = (i0 + row < n && m + tx < n) ? p[(i0 + row) * n + (m + tx)] : 0.0f;
            tq[row][tx] = (m + row < n && j < n) ? q[(m + row) * n + j] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BLKDIM; k++) {
            const float b = tq[k][tx];
            for (int s = 0; s < BLKDIM / ROWS; s++) v[s] += tp[ty + s * ROWS][k] * b;
        }
        __syncthreads();
    }
    for (int s = 0; s < BLKDIM / ROWS; s++) {
        const int i = i0 + ty + s * ROWS;
        if (i < n && j < n) r[i*n + j] = v[s];
    }
}

void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n)
{
    const dim3 block(BLKDIM, ROWS);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul_rt<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
