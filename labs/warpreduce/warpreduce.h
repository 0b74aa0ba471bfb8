/****************************************************************************
 *
 * warpreduce.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your warpreduce.cu against this file.
 *
 ****************************************************************************/
#ifndef WARPREDUCE_H
#define WARPREDUCE_H

/*
 * Both functions reduce the n ints a[0], a[1], ..., a[n-1] on the GPU, in
 * one pass over a[] (no partial sums copied back to the host), and leave
 * the result in device memory.
 *
 * - d_a is a DEVICE pointer to n ints: hpclab allocated it with cudaMalloc()
 *   and copied the input in. Read it, never write it (not even as scratch
 *   space).
 * - n is any value >= 1: neither a multiple of the block size nor of the
 *   warp size, necessarily.
 * - The result pointer is a DEVICE pointer to one int. hpclab does NOT
 *   initialise it: it holds garbage when the function is called.
 * - Launch and return: hpclab waits for the GPU before it reads the result.
 */

/*
 * reduce_sum(d_a, n, d_sum): *d_sum = a[0] + a[1] + ... + a[n-1], computed in
 * int: if it overflows, it wraps around (two's complement), as int
 * additions on the GPU do in any order.
 */
void reduce_sum(const int *d_a, int n, int *d_sum);

/*
 * reduce_max(d_a, n, d_max): *d_max = the largest of a[0], ..., a[n-1]. The
 * values may all be negative.
 */
void reduce_max(const int *d_a, int n, int *d_max);

#endif
