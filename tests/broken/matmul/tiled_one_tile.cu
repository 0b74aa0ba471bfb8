// expect: no_shared_memory
// why: only p's tile goes through shared memory; q is read from global memory inside the product loop: every element is right, the barriers are in place (no race) and the kernel uses shared memory, but 4096 B of it for a block of 32 x 32 threads where the lesson's two tiles need 8192 B (8 B per thread), so the cache-size rule fails.
/*
 * matmul.cu with one mistake: only one of the two tiles is in shared memory.
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
    /* MISTAKE: no local_q tile: q is read from global memory in the product */
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int i = blockIdx.y * BLKDIM + ty;  /* row of r */
    const int j = blockIdx.x * BLKDIM + tx;  /* column of r */
    float v = 0.0f;

    for (int m = 0; m < n; m += BLKDIM) {
        local_p[ty][tx] = (i < n && m + tx < n) ? p[i*n + (m + tx)] : 0.0f;
        __syncthreads();  /* the tiles are complete */
        for (int k = 0; k < BLKDIM; k++) {
            v += local_p[ty][k] * ((m + k < n && j < n) ? q[(m + k)*n + j] : 0.0f);
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
