// hpclab-bench: kind=reference tasks=naive,tiled title="Tuned reference: 32x32 tiles, four outputs per thread in blocks of 32x8"
// The speed baseline that labs/matmul/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. Its naive kernel is the course's, as in the solution
// (solutions/matmul/matmul.cu); its tiled kernel gives each thread four outputs, not one.
/****************************************************************************
 *
 * tuned.cu - matmul, the tuned reference: four outputs per thread in the
 *            tiled kernel
 *
 * Based on the course's cuda-matmul.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics"; the tiled kernel
 * after Salvatore Orlando's).
 *
 * Check it:  hpclab check matmul --file bench/matmul/tuned.cu
 * Time it:   hpclab bench matmul --variants solution,tuned
 *
 ****************************************************************************/
#include "hpc.h"
#include "matmul.h"

/* 32 x 32 = 1024 threads, the most a block may have, as in the course.
   A tile of that size is read from global memory once and used 32 times;
   the two tiles take 8 KB of shared memory, so two blocks (2048 threads)
   still fit on one multiprocessor of a recent GPU. */
#define BLKDIM 32

/*
 * One thread per element of r. Thread (threadIdx.x, threadIdx.y) of block
 * (blockIdx.x, blockIdx.y) computes row i, column j.
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
    const int i = blockIdx.y * blockDim.y + threadIdx.y;  /* row of r */
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  /* column of r */
    if (i < n && j < n) {
        float v = 0.0f;
        for (int k = 0; k < n; k++) {
            v += p[i*n + k] * q[k*n + j];
        }
        r[i*n + j] = v;  /* n*n <= 2^30: the index fits an int */
    }
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, BLKDIM);
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmul<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}

/* The tiled kernel computes BLKDIM x BLKDIM tiles of r with blocks of
   BLKDIM x (BLKDIM / ROWS) = 32 x 8 threads: each thread computes ROWS = 4
   elements of r, in one column, BLKDIM / ROWS rows apart. */
#define ROWS 4
#define STEP (BLKDIM / ROWS)  /* = blockDim.y: the rows between a thread's outputs */

/*
 * The same product through BLKDIM x BLKDIM tiles in shared memory. Block
 * (blockIdx.x, blockIdx.y) computes the tile of r with top-left element
 * (blockIdx.y * BLKDIM, blockIdx.x * BLKDIM); thread (tx, ty) computes its
 * column j = blockIdx.x * BLKDIM + tx at the ROWS rows i0, i0 + STEP,
 * i0 + 2*STEP, i0 + 3*STEP, where i0 = blockIdx.y * BLKDIM + ty, and keeps
 * the ROWS partial sums in registers (v[]). At each step m the block copies
 * a BLKDIM x BLKDIM tile of p and one of q into shared memory (each thread
 * ROWS elements of each, the rows of its outputs), and then runs the inner
 * loop over k.
 *
 * Why it is faster: each element of a tile is read from global memory once
 * and then used by BLKDIM threads from shared memory, so global (and cache)
 * traffic drops by a factor BLKDIM. The loads are coalesced (a warp reads
 * 32 consecutive floats of a row of p or q), and the inner loop reads
 * shared memory without bank conflicts: local_p[y][k] is one word for the
 * whole warp (a broadcast), local_q[k][tx] is 32 consecutive words, one per
 * bank. What makes it faster than the lesson's one-output-per-thread
 * version (the solution, solutions/matmul/matmul.cu) is the inner loop:
 * one thread reads local_q[k][tx] once and uses it for its ROWS outputs,
 * and nvcc fuses the local_p reads of four steps of k into 16-byte loads:
 * compiled for the H100, 0.5 shared loads per multiply-add against the
 * solution's 1.25 (scripts/shared-loads.sh). Blocks of 256 threads also
 * let 8 blocks share a multiprocessor, so while one waits at a barrier the
 * others compute.
 * Expected: about 1.5x the lesson's tiled kernel, 2x or more the naive one.
 *
 * Why it is not faster still: every multiply-add still needs some shared
 * memory traffic. Library kernels (cuBLAS) give each thread an 8 x 8 block
 * of outputs held in registers; docs/matmul-further.md walks through it.
 *
 * Any n: the tiles that stick out of the matrices are padded with zeros,
 * which add nothing to the sums. No thread leaves early: threads outside
 * r still load (zeros) and reach both barriers, and only the final stores
 * are guarded. Each sum adds its products in the order k = 0, 1, ..., n-1,
 * as the naive kernel does.
 */
__global__ void matmulb( const float *p, const float *q, float *r, int n )
{
    __shared__ float local_p[BLKDIM][BLKDIM];
    __shared__ float local_q[BLKDIM][BLKDIM];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int i0 = blockIdx.y * BLKDIM + ty;  /* first row of r this thread computes */
    const int j = blockIdx.x * BLKDIM + tx;   /* its column of r */
    float v[ROWS] = {0.0f};
    int s;

    for (int m = 0; m < n; m += BLKDIM) {
        /* Rows ty, ty + STEP, ... of both tiles: local_p[y][x] = p[i0 + s*STEP][m + x]
           and local_q[y][x] = q[m + y][j - tx + x], or 0 outside the matrices.
           m + tx and m + y are < n + BLKDIM: no overflow. */
        for (s = 0; s < ROWS; s++) {
            const int y = ty + s * STEP;
            const int i = i0 + s * STEP;
            local_p[y][tx] = (i < n && m + tx < n) ? p[i*n + (m + tx)] : 0.0f;
            local_q[y][tx] = (m + y < n && j < n) ? q[(m + y)*n + j] : 0.0f;
        }
        __syncthreads();  /* the tiles are complete */
        for (int k = 0; k < BLKDIM; k++) {
            const float qk = local_q[k][tx];  /* read once, used ROWS times */
            for (s = 0; s < ROWS; s++) {
                v[s] += local_p[ty + s * STEP][k] * qk;
            }
        }
        __syncthreads();  /* everyone is done with them: they may be overwritten */
    }
    for (s = 0; s < ROWS; s++) {
        const int i = i0 + s * STEP;
        if (i < n && j < n) {
            r[i*n + j] = v[s];
        }
    }
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    const dim3 block(BLKDIM, STEP);  /* 32 x 8 threads */
    const dim3 grid((n + BLKDIM - 1) / BLKDIM, (n + BLKDIM - 1) / BLKDIM);
    matmulb<<<grid, block>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
