// expect: no_shared_memory
// why: matmul_tiled launches the naive kernel: every element is right and in bounds, with no barrier to miss, but its kernel uses no shared memory (the speed check fails too, a lesser finding).
/*
 * matmul.cu with one mistake: matmul_tiled launches the naive kernel;
 * the shared-memory tiled kernel was never written.
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

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul<<<grid, block>>>(d_p, d_q, d_r, n); /* MISTAKE: the naive kernel, no tiles in shared memory */
    cudaCheckError();
}
