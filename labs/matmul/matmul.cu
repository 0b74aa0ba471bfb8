/****************************************************************************
 *
 * matmul.cu - Matrix-matrix multiply, naive and with shared memory tiles
 *
 * Based on the course's cuda-matmul.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics"; the tiled kernel
 * after Salvatore Orlando's).
 *
 * Compute r = p * q for n x n matrices of floats stored by rows: element
 * (i, j) of r is the dot product of row i of p and column j of q,
 *
 *     r[i*n + j] = p[i*n + 0] * q[0*n + j] + ... + p[i*n + n-1] * q[(n-1)*n + j]
 *
 * The matrices are two-dimensional, and so is the grid: a block of
 * BLKDIM x BLKDIM threads computes a BLKDIM x BLKDIM square of r, and the
 * grid has as many blocks in x (columns) and y (rows) as needed to cover
 * the n x n result. dim3 gives a block or a grid its two sizes:
 *
 *     dim3 block(BLKDIM, BLKDIM);
 *     dim3 grid(blocks in x, blocks in y);
 *     kernel<<<grid, block>>>(...);
 *
 * Task "naive": each thread computes one element of r, reading a row of
 * p and a column of q from global memory. Every element of p and q is
 * read n times over the whole grid.
 *
 * Task "tiled": the threads of a block need the same BLKDIM rows of p and
 * the same BLKDIM columns of q. They copy them into shared memory one
 * BLKDIM x BLKDIM tile at a time, all threads together, wait for each
 * other (__syncthreads()), and then read the tile from shared memory,
 * which is much faster than global memory. Global memory is then read
 * BLKDIM times less.
 *
 * n is any size, not only a multiple of BLKDIM: some blocks are only
 * partly inside the matrices.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run matmul
 *     hpclab run matmul --n 1000          (any other size)
 *     hpclab run matmul --task tiled      (one task only)
 *
 ****************************************************************************/
#include "hpc.h"
#include "matmul.h"

#define BLKDIM 32

/*
 * Task "naive": one thread per element of r.
 */
__global__ void matmul( const float *p, const float *q, float *r, int n )
{
    /* TODO 1: compute the row i and the column j of the element of r
       that this thread computes. The column comes from the x coordinates
       (blockIdx.x, blockDim.x, threadIdx.x), the row from the y ones. */

    /* TODO 2: if (i < n && j < n), add up p[i*n + k] * q[k*n + j] for
       k = 0 .. n-1 in a float variable, and store the sum in r[i*n + j]. */
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    /* TODO 3: launch matmul with blocks of BLKDIM x BLKDIM threads
       (dim3 block(BLKDIM, BLKDIM)) and a 2-D grid with enough blocks in
       x and in y to cover n columns and n rows when n is not a multiple
       of BLKDIM. One block of one thread, as below, covers one element
       at most. */
    matmul<<<1, 1>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}

/*
 * Task "tiled": the same product, through BLKDIM x BLKDIM tiles of p and
 * q in shared memory. The block that computes the square of r at block
 * row by, block column bx walks along the rows of p and down the columns
 * of q, one tile at a time:
 *
 *     for (m = 0; m < n; m += BLKDIM) {
 *         copy the tile of p at rows by*BLKDIM.., columns m.. into local_p
 *         copy the tile of q at rows m.., columns bx*BLKDIM.. into local_q
 *         wait for every thread of the block
 *         add the products of row ty of local_p and column tx of local_q
 *         wait for every thread of the block
 *     }
 */
__global__ void matmulb( const float *p, const float *q, float *r, int n )
{
    /* TODO 4: declare two __shared__ arrays of BLKDIM x BLKDIM floats,
       local_p and local_q, and compute, as in matmul, the row i and the
       column j of this thread's element of r (use threadIdx.x as tx and
       threadIdx.y as ty: you need them below). Start a float sum at 0. */

    /* TODO 5: loop m = 0, BLKDIM, 2*BLKDIM, ... while m < n. In each
       step, thread (tx, ty) copies ONE element of each tile:

           local_p[ty][tx] = p[i*n + (m + tx)]
           local_q[ty][tx] = q[(m + ty)*n + j]

       When n is not a multiple of BLKDIM, the last tiles stick out of the
       matrices: where the row or the column is >= n, store 0.0f instead
       of reading p or q (a zero adds nothing to the sum). */

    /* TODO 6: wait until the whole block has copied its elements
       (__syncthreads()), then add local_p[ty][k] * local_q[k][tx] for
       k = 0 .. BLKDIM-1 to the sum. */

    /* TODO 7: wait again before the next step overwrites the tiles that
       other threads may still be reading. Every thread of the block must
       reach every __syncthreads(): never put one inside an if that only
       some threads take, and do not let threads outside the matrix skip
       the loop. */

    /* TODO 8: after the loop, if (i < n && j < n), store the sum in
       r[i*n + j]. */
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    /* TODO 9: launch matmulb with the same block and grid as in
       matmul_naive. */
    matmulb<<<1, 1>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
