/****************************************************************************
 *
 * matmul.h - The functions hpclab calls in this lab, and their contract
 *
 * Do not edit: hpclab compiles your matmul.cu against this file.
 *
 ****************************************************************************/
#ifndef MATMUL_H
#define MATMUL_H

/*
 * Both functions compute the matrix product r = p * q of two n x n
 * matrices of floats stored by rows (row-major): element (i, j), row i
 * and column j, is at index i*n + j, and
 *
 *     r[i*n + j] = sum over k = 0 .. n-1 of p[i*n + k] * q[k*n + j]
 *
 * - d_p, d_q and d_r are DEVICE pointers to n*n floats each: hpclab
 *   allocated them with cudaMalloc() and copied p and q in. Do not
 *   allocate or copy.
 * - Read d_p and d_q, never write them; write every element of d_r, and
 *   nothing outside it.
 * - n is any value from 1 to 32768: not only a multiple of BLKDIM. Since
 *   n*n <= 2^30, every element index i*n + j fits an int.
 * - The sums are computed in float: hpclab compares each element with a
 *   float64 reference, allowing an error of 5e-5 times the sum of the
 *   |p[i*n + k] * q[k*n + j]| (the size of the rounding a float sum makes).
 * - Launch the kernel and return. hpclab waits for the GPU and times the
 *   call (cudaCheckError() after the launch is welcome: it waits too).
 */

/* One thread per element of r, in a 2-D grid of BLKDIM x BLKDIM blocks;
   each thread reads p and q from global memory. */
void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n);

/* The same product, with BLKDIM x BLKDIM tiles of p and q copied into
   shared memory and used by every thread of the block. */
void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n);

#endif
