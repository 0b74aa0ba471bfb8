/****************************************************************************
 *
 * vecadd1.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your vecadd1.cu against this file.
 *
 ****************************************************************************/
#ifndef VECADD1_H
#define VECADD1_H

/*
 * vecadd1(a, b, c, n) computes c[i] = a[i] + b[i] for 0 <= i < n on the
 * GPU, with n blocks of ONE thread each: block i adds element i.
 *
 * - a, b and c are HOST pointers to n ints each. The memory management
 *   (cudaMalloc, cudaMemcpy in and out, cudaFree) is given in vecadd1.cu.
 * - Read a and b, never write them; write every element of c.
 * - n is any value from 1 to 16777216.
 * - When vecadd1() returns, c must hold the result.
 */
void vecadd1(const int *a, const int *b, int *c, int n);

#endif
