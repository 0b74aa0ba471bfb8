// hpclab-bench: kind=further tasks=tiled title="Going further: 128x128 block tiles and 8x8 outputs per thread in registers"
/****************************************************************************
 *
 * register_tiled.cu - matmul, going further: register tiling (SGEMM)
 *
 * Not part of the lesson: a benchmark variant that shows how far plain
 * CUDA C gets towards cuBLAS in fp32 (no tensor cores). The walkthrough is
 * docs/matmul-further.md: naive -> shared tiles -> several outputs per
 * thread -> an 8 x 8 block of outputs in registers -> 16-byte shared loads
 * -> double buffering -> warp tiles, the operands one step ahead -> the
 * multiply-adds in snake order.
 *
 * Same contract as labs/matmul/matmul.h: row-major n x n floats, device
 * pointers, any n from 1 to 32768. matmul_naive here is the same kernel as
 * matmul_tiled (this variant is benchmarked as the tiled task only).
 *
 ****************************************************************************/
#include <stdint.h>
#include "hpc.h"
#include "matmul.h"

#define BM 128  /* rows of r computed by one block */
#define BN 128  /* columns of r computed by one block */
#define BK 8    /* the depth (values of k) of one step through shared memory */
#define TM 8    /* rows of r computed by one thread */
#define TN 8    /* columns of r computed by one thread */
#define NTHREADS ((BM / TM) * (BN / TN))  /* 16 x 16 = 256 threads per block */
#define APAD 4  /* padding of the rows of As[]: see the loads */

/*
 * Four consecutive floats of an n x n matrix m, from (row, col) on, as one
 * float4. EVEN (n a multiple of BM, and m 16-byte aligned, both checked by
 * the host) means the four are inside the matrix and 16-byte aligned: one
 * 16-byte load. Otherwise four loads, with zeros outside the matrix (they
 * add nothing to the sums, as the tiled kernel's padding).
 */
template <bool EVEN>
__device__ float4 load4( const float *m, int row, int col, int n )
{
    if (EVEN) {
        return *(const float4 *)&m[(size_t)row * n + col];
    }
    float4 v;
    v.x = (row < n && col + 0 < n) ? m[(size_t)row * n + col + 0] : 0.0f;
    v.y = (row < n && col + 1 < n) ? m[(size_t)row * n + col + 1] : 0.0f;
    v.z = (row < n && col + 2 < n) ? m[(size_t)row * n + col + 2] : 0.0f;
    v.w = (row < n && col + 3 < n) ? m[(size_t)row * n + col + 3] : 0.0f;
    return v;
}

/*
 * The operands of step k of the outer products, for the thread whose rows
 * start at tile row rb and columns at tile column cb: column k of p's slice
 * (a[]: rows rb .. rb+3 and rb+32 .. rb+35) and row k of q's (b[]: columns
 * cb .. cb+3 and cb+16 .. cb+19), as four 16-byte shared loads.
 */
__device__ __forceinline__ void fragments( const float As[BK][BM + APAD], const float Bs[BK][BN], int k, int rb, int cb,
                                           float a[TM], float b[TN] )
{
    const float4 a0 = *(const float4 *)&As[k][rb];
    const float4 a1 = *(const float4 *)&As[k][rb + 32];
    const float4 b0 = *(const float4 *)&Bs[k][cb];
    const float4 b1 = *(const float4 *)&Bs[k][cb + 16];
    a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
    a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
    b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
    b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
}

/*
 * Block (blockIdx.x, blockIdx.y) computes the BM x BN tile of r whose
 * top-left element is (row0, col0) = (blockIdx.y * BM, blockIdx.x * BN).
 * Its 8 warps form a 2 x 4 grid of warp tiles of 64 x 32 outputs (warp w:
 * rows (w / 4) * 64 .., columns (w % 4) * 32 ..), and within a warp tile
 * the 32 lanes an 8 x 4 grid: each thread computes 8 x 8 outputs, held in
 * 64 registers acc[][], rows rb .. rb+3 and rb+32 .. rb+35, columns
 * cb .. cb+3 and cb+16 .. cb+19, with rb = (w / 4) * 64 + (lane / 4) * 4
 * and cb = (w % 4) * 32 + (lane % 4) * 4 (two runs of four: see the shared
 * loads below).
 *
 * The block walks along k in steps of BK = 8. At each step it has in shared
 * memory a BM x BK slice of p, stored transposed (As[k][i] = p[row0+i][k0+k]),
 * and a BK x BN slice of q (Bs[k][j] = q[k0+k][col0+j]); then for each k
 * every thread reads 8 values of column k of p's slice and 8 of row k of
 * q's slice into registers (a[], b[]) and does the 64 multiply-adds of
 * their outer product: acc[i][j] += a[i] * b[j].
 *
 * Why it is fast:
 * - Register tiling. The lesson's tiled kernel reads two floats from shared
 *   memory per multiply-add; the 4-output tuned.cu 1.25. Here 16 floats
 *   feed 64 multiply-adds: 0.25 per multiply-add, and shared memory stops
 *   being the limit. From global memory, each block reads
 *   (BM + BN) * BK floats per step for BM * BN * BK multiply-adds: 64
 *   multiply-adds per float (16 per byte) instead of 16 for 32 x 32 tiles.
 * - 16-byte shared loads. a[] and b[] come in four float4 loads (LDS.128)
 *   instead of sixteen. p's slice is stored transposed so that the 8 values
 *   of a column are consecutive in As[k][...].
 * - Warp tiles. A warp's 32 threads cover a compact 64 x 32 region, so a
 *   load of a[] reads 8 different float4 (the lanes' rows: 128 consecutive
 *   bytes) and one of b[] 4 (64 bytes, each read by 8 lanes at once): one
 *   shared-memory wavefront each, 4 a step k. Threads laid out 16 x 16 over
 *   the whole tile made a warp read 16 different float4 of b[] per load:
 *   2 wavefronts, 6 a step.
 * - Double buffering. The loads of the next slices from global memory are
 *   issued (into registers) before the multiply-adds of the current ones,
 *   and stored into the other half of As[] and Bs[] after them: the wait
 *   for global memory hides behind arithmetic, and one barrier per step
 *   suffices (a half is only overwritten after every thread has passed the
 *   barrier that ends its last use).
 * - APAD: the transposed stores into As[] would put the two threads that
 *   load one row of p (columns 0-3 and 4-7) in the same bank; 4 floats of
 *   padding per row of As[] shift the second half to the other 16 banks,
 *   and keep 16-byte alignment.
 * - Operands one step ahead: the shared loads of k + 1 are issued before
 *   the 64 multiply-adds of k, so their latency hides behind arithmetic
 *   instead of stalling the warp at the start of every k.
 * - Snake order: row i of the outer product runs over the columns forwards
 *   when i is even and backwards when it is odd, so consecutive
 *   multiply-adds share an operand (b[j] at the turn, a[i] along a row),
 *   which the hardware's operand reuse caches serve without a register
 *   file read.
 * - 256 threads with at most 128 registers each (__launch_bounds__): two
 *   blocks per multiprocessor, so one computes while the other waits.
 *
 * What is left to cuBLAS: its fp32 kernel on the H200 (nvcc cannot be asked
 * for it) has tiles of 256 x 128, a three-stage pipeline of asynchronous
 * copies, 254 registers a thread and a register allocation tuned by hand;
 * the same shapes in CUDA C were slower here (docs/matmul-further.md).
 *
 * Every sum adds its products in the order k = 0, 1, ..., n-1, as the lab's
 * other kernels do. Every thread reaches every barrier; only the final
 * stores are guarded (by EVEN, or by i < n and j < n).
 */
template <bool EVEN>
__global__ void __launch_bounds__(NTHREADS, 2) sgemm( const float *__restrict__ p, const float *__restrict__ q, float *__restrict__ r, int n )
{
    __shared__ __align__(16) float As[2][BK][BM + APAD];
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int rb = (warp / 4) * 64 + (lane / 4) * 4;  /* this thread's first row of the tile */
    const int cb = (warp % 4) * 32 + (lane % 4) * 4;  /* its first column */
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;
    /* What each thread copies at every step: one float4 of p's slice (row
       a_row, columns a_col .. a_col+3 of the slice) and one of q's. */
    const int a_row = tid / 2, a_col = (tid % 2) * 4;
    const int b_row = tid / 32, b_col = (tid % 32) * 4;
    const int n_steps = (n + BK - 1) / BK;
    float acc[TM][TN] = {{0.0f}};
    float a[2][TM], b[2][TN];  /* the operands of k and of k + 1 */
    float4 pa, pb;
    int step, k, i, j;

    /* The first slices, into half 0. */
    pa = load4<EVEN>(p, row0 + a_row, a_col, n);
    pb = load4<EVEN>(q, b_row, col0 + b_col, n);
    As[0][a_col + 0][a_row] = pa.x;
    As[0][a_col + 1][a_row] = pa.y;
    As[0][a_col + 2][a_row] = pa.z;
    As[0][a_col + 3][a_row] = pa.w;
    *(float4 *)&Bs[0][b_row][b_col] = pb;
    __syncthreads();

    for (step = 0; step < n_steps; step++) {
        const int cur = step % 2;
        const bool more = step + 1 < n_steps;
        if (more) {  /* start loading the next slices: they arrive during the loop below */
            const int k0 = (step + 1) * BK;
            pa = load4<EVEN>(p, row0 + a_row, k0 + a_col, n);
            pb = load4<EVEN>(q, k0 + b_row, col0 + b_col, n);
        }
        fragments(As[cur], Bs[cur], 0, rb, cb, a[0], b[0]);
#pragma unroll
        for (k = 0; k < BK; k++) {
            if (k + 1 < BK) {  /* the next k's operands, loaded while these multiply-adds run */
                fragments(As[cur], Bs[cur], k + 1, rb, cb, a[(k + 1) % 2], b[(k + 1) % 2]);
            }
#pragma unroll
            for (i = 0; i < TM; i++) {
#pragma unroll
                for (j = 0; j < TN; j++) {
                    const int jj = (i % 2 == 0 ? j : TN - 1 - j);  /* snake order */
                    acc[i][jj] += a[k % 2][i] * b[k % 2][jj];
                }
            }
        }
        if (more) {  /* the next slices into the other half */
            As[1 - cur][a_col + 0][a_row] = pa.x;
            As[1 - cur][a_col + 1][a_row] = pa.y;
            As[1 - cur][a_col + 2][a_row] = pa.z;
            As[1 - cur][a_col + 3][a_row] = pa.w;
            *(float4 *)&Bs[1 - cur][b_row][b_col] = pb;
        }
        __syncthreads();
    }

    /* acc[i][j] is r[row0 + rows(i)][col0 + cols(j)], with rows(i) =
       rb + i for i < 4 and rb + 32 + (i - 4) after, and cols(j) = cb + j
       for j < 4 and cb + 16 + (j - 4) after. */
#pragma unroll
    for (i = 0; i < TM; i++) {
        const int row = row0 + rb + (i / 4) * 32 + (i % 4);
#pragma unroll
        for (j = 0; j < TN; j += 4) {
            const int col = col0 + cb + (j / 4) * 16;
            if (EVEN) {
                *(float4 *)&r[(size_t)row * n + col] = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else if (row < n) {
                if (col + 0 < n) r[(size_t)row * n + col + 0] = acc[i][j + 0];
                if (col + 1 < n) r[(size_t)row * n + col + 1] = acc[i][j + 1];
                if (col + 2 < n) r[(size_t)row * n + col + 2] = acc[i][j + 2];
                if (col + 3 < n) r[(size_t)row * n + col + 3] = acc[i][j + 3];
            }
        }
    }
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    const bool aligned = ((uintptr_t)d_p | (uintptr_t)d_q | (uintptr_t)d_r) % 16 == 0;
    const dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    if (aligned && n % BM == 0) {
        sgemm<true><<<grid, NTHREADS>>>(d_p, d_q, d_r, n);
    } else {
        sgemm<false><<<grid, NTHREADS>>>(d_p, d_q, d_r, n);
    }
    cudaCheckError();
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    matmul_tiled(d_p, d_q, d_r, n);
}
