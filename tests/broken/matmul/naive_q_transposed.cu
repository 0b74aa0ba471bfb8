// expect: wrong_answer
// why: matmul_naive reads q[j*n + k] instead of q[k*n + j] (a row of q where a column is needed): it computes p times q transposed, in bounds, so every element but n = 1's is wrong.
/*
 * matmul.cu with one mistake: the naive product reads q by rows.
 */
#include "hpc.h"
#include "matmul.h"

#define BLKDIM 32

/* One thread per element of r (the reference naive kernel). */
__global__ void matmul( const float *p, const float *q, float *r, int n )
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y;  /* row of r */
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  /* column of r */
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) {
            v += p[i*n + k] * q[j*n + k]; /* MISTAKE: q[k*n + j]: a column of q */
        }
        r[i*n + j] = v;
    }
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}

__global__ void matmulb( const float *p, const float *q, float *r, int n )
{
    __shared__ float local_p[BLKDIM][BLKDIM];
    __shared__ float local_q[BLKDIM][BLKDIM];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int i = blockIdx.y * BLKDIM + ty;  /* row of r */
    const int j = blockIdx.x * BLKDIM + tx;  /* column of r */
    float v = 0.0f;

    for (int m = 0; m < n; m += BLKDIM) {
        local_p[ty][tx] = (i < n && m + tx < n) ? p[i*n + (m + tx)] : 0.0f;
        local_q[ty][tx] = (m + ty < n && j < n) ? q[(m + ty)*n + j] : 0.0f;
        __syncthreads();  /* the tiles are complete */
        for (int k = 0; k < BLKDIM; k++) {
            v += local_p[ty][k] * local_q[k][tx];
        }
        __syncthreads();  /* before the next step overwrites the tiles */
    }
    if (i < n && j < n) {
        r[i*n + j] = v;
    }
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmulb<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
