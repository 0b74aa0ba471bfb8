/****************************************************************************
 *
 * symbols.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your symbols.cu against this file.
 *
 ****************************************************************************/
#ifndef SYMBOLS_H
#define SYMBOLS_H

/* The number of coefficients of the polynomial of poly_eval. */
#define NCOEFF 64

/*
 * sum_symbol(d_a, n): the sum a[0] + a[1] + ... + a[n-1] of n ints.
 *
 * - d_a is a DEVICE pointer to n ints: hpclab allocated it with cudaMalloc()
 *   and copied the input in. Read it, never write it.
 * - n is any value >= 1.
 * - Each block of the kernel stores its partial sum into a __device__ array
 *   of ints that your file declares (statically allocated: no cudaMalloc in
 *   this function); the host copies the partial sums back with
 *   cudaMemcpyFromSymbol(), adds them up and returns the total.
 * - The sum is computed in int: if it overflows, it wraps around (two's
 *   complement), as int additions on the GPU do in any order.
 */
int sum_symbol(const int *d_a, int n);

/*
 * poly_eval(coeff, d_x, d_y, n): d_y[i] = p(d_x[i]) for every i < n, where
 * p(x) = coeff[0] + coeff[1] x + coeff[2] x^2 + ... + coeff[NCOEFF-1] x^(NCOEFF-1).
 *
 * - coeff is a HOST pointer to NCOEFF floats. Copy them once per call into
 *   a __constant__ array of your file with cudaMemcpyToSymbol(); every
 *   thread then reads them from there.
 * - d_x (input, read only) and d_y (output) are DEVICE pointers to n floats.
 * - n is any value >= 1.
 * - Launch and return: hpclab waits for the GPU before it reads d_y.
 */
void poly_eval(const float *coeff, const float *d_x, float *d_y, int n);

#endif
