/****************************************************************************
 *
 * vecadd2.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your vecadd2.cu against this file.
 *
 ****************************************************************************/
#ifndef VECADD2_H
#define VECADD2_H

/*
 * vecadd2(a, b, c, n) computes c[i] = a[i] + b[i] for 0 <= i < n on the
 * GPU, with ONE block of n threads: thread i adds element i.
 *
 * - a, b and c are HOST pointers to n ints each. The memory management
 *   (cudaMalloc, cudaMemcpy in and out, cudaFree) is given in vecadd2.cu.
 * - Read a and b, never write them.
 * - If n threads fit one block on this GPU (ask the GPU its maximum number
 *   of threads per block; do not assume a number): write every element of
 *   c and return 0.
 * - If they do not: print a clear message to stderr, launch nothing and
 *   return -1 (c is then left alone).
 * - n is any value from 1 to 1048576.
 */
int vecadd2(const int *a, const int *b, int *c, int n);

#endif
