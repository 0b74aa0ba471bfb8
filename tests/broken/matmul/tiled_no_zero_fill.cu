// expect: cuda_error
// why: the tiles are loaded without the zero fill, so for n not a multiple of 32 the edge tiles read p and q past their ends. At n = 1000 the last tiles read 24 rows of q past its end, 96 KB, past the 64 KiB guard zone into the unmapped page hpclab leaves after every device buffer: an illegal address in the plain run, which the file's own cudaCheckError() reports. Memcheck still names the line of the invalid read (at n = 7, 33 or 100, where the reads stay in the guard zone and its NaNs spoil the sums).
/*
 * matmul.cu with one mistake: the tiles that stick out of the matrices
 * are not padded with zeros: the loads have no bound check.
 * matmul_naive is the reference solution.
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
            v += p[i*n + k] * q[k*n + j];
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
        /* MISTAKE: no "(i < n && m + tx < n) ? ... : 0.0f" (and the same for q) */
        local_p[ty][tx] = p[i*n + (m + tx)];
        local_q[ty][tx] = q[(m + ty)*n + j];
        __syncthreads();  /* the tiles are complete */
        for (int k = 0; k < BLKDIM; k++) {
            v += local_p[ty][k] * local_q[k][tx];
        }
        __syncthreads();  /* everyone is done with them: they may be overwritten */
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
