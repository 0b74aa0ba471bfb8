// expect: not_on_gpu
// why: matmul_naive copies q back to the host and transposes it there, so that its kernel reads both matrices by rows (the tiled task is the lesson's): the product is right and a kernel computes it, but the call copies n*n floats back to the host where the task's output stays on the device (device_finishes), from n = 32 (at n = 7 its 196 bytes are within the few hundred the invariant spares)
/*
 * matmul.cu with one mistake in matmul_naive: q transposed on the host.
 */
#include <stdlib.h>
#include "hpc.h"
#include "matmul.h"

/* 32 x 32 = 1024 threads, the most a block may have, as in the course.
   A tile of that size is read from global memory once and used 32 times;
   the two tiles take 8 KB of shared memory, so two blocks (2048 threads)
   still fit on one multiprocessor of a recent GPU. */
#define BLKDIM 32

/*
 * Task "naive": one thread per element of r. Thread (threadIdx.x,
 * threadIdx.y) of block (blockIdx.x, blockIdx.y) computes row i, column j.
 *
 * Why it is slow: each thread reads 2n floats for 2n flops, and every
 * element of p and q is read n times over the grid. The accesses are at
 * least well coalesced: the 32 threads of a warp share i and have
 * consecutive j, so at each k they read one element of p (one transaction,
 * broadcast to the warp) and 32 consecutive floats of q (one 128-byte
 * line). What keeps it from being slower still is the caches (L1 and L2)
 * catching most of those repeated reads; the kernel is limited by how fast
 * they deliver data, not by the arithmetic units.
 */
__global__ void matmul( const float *p, const float *q, float *r, int n )
{
    /* 1: the row from the y coordinates, the column from the x ones */
    const int i = blockIdx.y * blockDim.y + threadIdx.y;  /* row of r */
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  /* column of r */

    /* 2: row i of p times column j of q, for the threads inside r */
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) {
            v += p[i*n + k] * q[k*n + j];
        }
        r[i*n + j] = v;  /* n*n <= 2^30: the index fits an int */
    }
}

/* The product with q given transposed (qt[j*n + k] = q[k*n + j]): row i of
   p times row j of qt. */
__global__ void matmul_qt( const float *p, const float *qt, float *r, int n )
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) {
            v += p[i*n + k] * qt[j*n + k];
        }
        r[i*n + j] = v;
    }
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    const size_t size = (size_t)n * n * sizeof(float);
    /* MISTAKE: q copied to the host and transposed there ("so that both
       matrices are read by rows"), instead of
       matmul<<<grid, block>>>(d_p, d_q, d_r, n); */
    float *q = (float *)malloc(size), *qt = (float *)malloc(size), *d_qt;
    cudaSafeCall( cudaMemcpy(q, d_q, size, cudaMemcpyDeviceToHost) );
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < n; j++) {
            qt[(size_t)j*n + k] = q[(size_t)k*n + j];
        }
    }
    cudaSafeCall( cudaMalloc((void **)&d_qt, size) );
    cudaSafeCall( cudaMemcpy(d_qt, qt, size, cudaMemcpyHostToDevice) );
    matmul_qt<<<grid, block>>>(d_p, d_qt, d_r, n);
    cudaCheckError();
    cudaSafeCall( cudaFree(d_qt) );
    free(q);
    free(qt);
}

/*
 * Task "tiled": the same product through BLKDIM x BLKDIM tiles in shared
 * memory.
 *
 * Why it is faster: each element of a tile is read from global memory by
 * one thread and then used by BLKDIM threads from shared memory, so global
 * (and cache) traffic drops by a factor BLKDIM. The loads stay coalesced
 * (thread tx reads column m + tx of p and column j of q: consecutive
 * addresses), and the inner loop reads shared memory without bank
 * conflicts: local_p[ty][k] is one word for the whole warp (a broadcast)
 * and local_q[k][tx] is 32 consecutive words, one per bank.
 *
 * Why it is not BLKDIM times faster: the inner loop still loads from
 * shared memory for every multiply-add (compiled for the H100, 1.25 loads
 * per multiply-add: nvcc fuses four local_p[ty][k] into one 16-byte load;
 * scripts/shared-loads.sh counts them), and the two barriers per step
 * make threads wait for the slowest warp of their block; docs/matmul.md
 * says what the counts explain and what they do not. The speed
 * baseline, bench/matmul/tuned.cu, gives each thread four outputs of one
 * column, so that each local_q[k][tx] it reads serves four multiply-adds;
 * library kernels (cuBLAS) go further by keeping an 8 x 8 block of results
 * per thread in registers (docs/matmul-further.md).
 *
 * Any n: the tiles that stick out of the matrices are padded with zeros,
 * which add nothing to the sums. No thread leaves early: threads outside
 * r still load (zeros) and reach both barriers, and only the final store
 * is guarded.
 */
__global__ void matmulb( const float *p, const float *q, float *r, int n )
{
    /* 4: the two tiles, and this thread's element of r */
    __shared__ float local_p[BLKDIM][BLKDIM];
    __shared__ float local_q[BLKDIM][BLKDIM];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int i = blockIdx.y * BLKDIM + ty;  /* row of r */
    const int j = blockIdx.x * BLKDIM + tx;  /* column of r */
    float v = 0.0f;

    for (int m = 0; m < n; m += BLKDIM) {
        /* 5: one element of each tile, a zero outside the matrices
           (m + tx and m + ty are < n + BLKDIM: no overflow) */
        local_p[ty][tx] = (i < n && m + tx < n) ? p[i*n + (m + tx)] : 0.0f;
        local_q[ty][tx] = (m + ty < n && j < n) ? q[(m + ty)*n + j] : 0.0f;

        /* 6: the tiles are complete: row ty of one times column tx of the other */
        __syncthreads();
        for (int k = 0; k < BLKDIM; k++) {
            v += local_p[ty][k] * local_q[k][tx];
        }

        /* 7: everyone is done with them: they may be overwritten */
        __syncthreads();
    }

    /* 8: only the store is guarded */
    if (i < n && j < n) {
        r[i*n + j] = v;
    }
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    /* 9: the same block and grid as matmul_naive */
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmulb<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
