/****************************************************************************
 *
 * stencil.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your stencil.cu against this file.
 *
 ****************************************************************************/
#ifndef STENCIL_H
#define STENCIL_H

/* The radius of the stencil: each output is the sum of 2*RADIUS+1 inputs. */
#define RADIUS 3

/*
 * stencil1d(d_in, d_out, n) computes, for 0 <= i < n,
 *
 *     d_out[i] = d_in[i] + d_in[i + 1] + ... + d_in[i + 2*RADIUS]
 *
 * that is the sum of the 2*RADIUS+1 inputs centred on d_in[i + RADIUS].
 *
 * - d_in is a DEVICE pointer to n + 2*RADIUS ints: the n inputs with a halo
 *   of RADIUS extra elements already in place at each end, so no output
 *   needs a special case at the borders.
 * - d_out is a DEVICE pointer to n ints: write every one of them.
 * - hpclab allocated both with cudaMalloc() and copied the input in: do not
 *   allocate or copy. Read d_in, never write it; never read past its
 *   n + 2*RADIUS elements nor write past d_out's n.
 * - n is any value >= 1: not only a multiple of the block size.
 * - Launch the kernel and return. hpclab waits for the GPU and times the
 *   call (cudaCheckError() after the launch is welcome: it waits too).
 */
void stencil1d(const int *d_in, int *d_out, int n);

#endif
