/****************************************************************************
 *
 * vecadd0.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your vecadd0.cu against this file.
 *
 ****************************************************************************/
#ifndef VECADD0_H
#define VECADD0_H

/*
 * add_on_device(a, b, c) stores *a + *b into *c, computed by a kernel on
 * the GPU.
 *
 * - a, b and c are HOST pointers to ONE int each: the GPU cannot read them.
 *   Allocate device copies (cudaMalloc), copy *a and *b to the device
 *   (cudaMemcpy), launch add<<<1, 1>>>, copy the result back into *c, and
 *   free the device memory (cudaFree) before returning.
 * - Read *a and *b, never write them; write *c.
 * - *a and *b are any ints between -2^30 and 2^30 - 1, negative too, so the
 *   sum always fits an int.
 * - When add_on_device() returns, *c must hold the sum (the copy back to the
 *   host waits for the kernel).
 */
void add_on_device(const int *a, const int *b, int *c);

#endif
