/****************************************************************************
 *
 * diagnose.h - The functions hpclab calls in this lab, and their contract
 *
 * Do not edit: hpclab compiles your diagnose.cu against this file.
 *
 ****************************************************************************/
#ifndef DIAGNOSE_H
#define DIAGNOSE_H

/*
 * Both functions work on a matrix of rows x cols floats stored by rows:
 * element (r, c) - row r, column c - is d_in[r * cols + c].
 *
 * - d_in, d_f and d_out are DEVICE pointers: hpclab allocated them with
 *   cudaMalloc() and copied the inputs in. Do not allocate or copy.
 * - Read d_in and d_f, never write them; write every element of d_out,
 *   and nothing outside it.
 * - rows and cols are any values from 1 to 65536, not only multiples of
 *   the block size, and the matrix need not be square. rows * cols can
 *   pass 2^31: compute the index of an element in a size_t.
 * - Launch the kernels and return. hpclab waits for the GPU and times
 *   the call (cudaCheckError() after a launch is welcome: it waits too).
 */

/* The transpose: d_out is cols rows of rows floats, and
       d_out[c * rows + r] = d_in[r * cols + c]
   The elements are copied, not computed: the check is exact. */
void transpose(const float *d_in, float *d_out, int rows, int cols);

/* Each row scaled by its own factor: d_f holds rows floats, and
       d_out[r * cols + c] = d_in[r * cols + c] * d_f[r]
   one float multiplication each: the check is exact. */
void scale_rows(const float *d_in, const float *d_f, float *d_out, int rows, int cols);

#endif
