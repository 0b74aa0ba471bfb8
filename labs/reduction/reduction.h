/****************************************************************************
 *
 * reduction.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your reduction.cu against this file.
 *
 ****************************************************************************/
#ifndef REDUCTION_H
#define REDUCTION_H

/*
 * All three functions compute the sum a[0] + a[1] + ... + a[n-1] of n ints.
 *
 * - d_a is a DEVICE pointer to n ints: hpclab allocated it with cudaMalloc()
 *   and copied the input in. Read it, never write it (not even as scratch
 *   space).
 * - n is any value >= 1: neither a multiple of the block size nor a power
 *   of two, necessarily.
 * - The sum is computed in int: if it overflows, it wraps around (two's
 *   complement), as int additions on the GPU do in any order.
 */

/*
 * sum_naive(d_a, n): thread 0 of each block adds up its block's elements
 * (from shared memory, after a barrier) and stores the block's sum into an
 * array of partial sums in device memory, one int per block, that the
 * function allocates itself (cudaMalloc) and frees before it returns
 * (cudaFree). The host copies the partial sums back, adds them up and
 * returns the total. It returns only when the result is known, so it waits
 * for the GPU (cudaMemcpy does).
 */
int sum_naive(const int *d_a, int n);

/*
 * sum_tree(d_a, n): the same as sum_naive, but all the threads of a block
 * cooperate to compute the block's sum with a tree reduction in shared
 * memory (half of the active threads drop out at every step, with a
 * barrier between steps).
 */
int sum_tree(const int *d_a, int n);

/*
 * sum_atomic(d_a, n, d_sum): the total ends up in *d_sum, a DEVICE pointer
 * to one int. hpclab does NOT set *d_sum to zero: it holds garbage when the
 * function is called, so set it to zero first (cudaMemset). Then each
 * block computes its sum with a tree reduction and adds it to *d_sum with
 * atomicAdd(). No partial sums go back to the host. Launch and return:
 * hpclab waits for the GPU before it reads *d_sum.
 */
void sum_atomic(const int *d_a, int n, int *d_sum);

#endif
