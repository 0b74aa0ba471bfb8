/****************************************************************************
 *
 * vecadd3.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your vecadd3.cu against this file.
 *
 ****************************************************************************/
#ifndef VECADD3_H
#define VECADD3_H

/*
 * vecadd(d_a, d_b, d_c, n) computes c[i] = a[i] + b[i] for 0 <= i < n.
 *
 * - d_a, d_b and d_c are DEVICE pointers to n ints each: hpclab allocated
 *   them with cudaMalloc() and copied a and b in. Do not allocate or copy.
 * - Read d_a and d_b, never write them; write every element of d_c.
 * - n is any value >= 1: not only a multiple of the block size.
 * - Launch the kernel and return. hpclab waits for the GPU and times the
 *   call (cudaCheckError() after the launch is welcome: it waits too).
 */
void vecadd(const int *d_a, const int *d_b, int *d_c, int n);

#endif
