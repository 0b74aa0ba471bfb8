/****************************************************************************
 *
 * histogram.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your histogram.cu against this file.
 *
 ****************************************************************************/
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

/* The most bins a call asks for: a private histogram of MAX_BINS ints
   (16 KB) fits in the shared memory of a block. */
#define MAX_BINS 4096

/*
 * Both functions count how many of the n ints a[0], ..., a[n-1] take
 * each value: on return, d_hist[v] is the number of elements equal to v,
 * for every v in 0 .. bins-1.
 *
 * - d_a is a DEVICE pointer to n ints, each in 0 .. bins-1: hpclab
 *   allocated it with cudaMalloc() and copied the input in. Read it, never
 *   write it.
 * - n is any value >= 1; bins is any value from 1 to MAX_BINS.
 * - Some inputs are skewed: a share of the elements (up to 95%) all hold
 *   the same value, as the pixels of a dark image or the words of a text
 *   pile up on a few bins.
 * - d_hist is a DEVICE pointer to bins ints. hpclab does NOT set it to
 *   zero: it holds garbage when the function is called.
 * - Launch and return: hpclab waits for the GPU before it reads d_hist.
 */

/*
 * histogram_global(d_a, n, d_hist, bins): one thread per element, each
 * adding 1 to its element's bin in d_hist with atomicAdd().
 */
void histogram_global(const int *d_a, int n, int *d_hist, int bins);

/*
 * histogram_shared(d_a, n, d_hist, bins): privatisation. Each block counts
 * into a private histogram in shared memory (atomicAdd() on shared memory),
 * over a grid that just fills the GPU with a grid-stride loop, and adds its
 * counts into d_hist once, at the end.
 */
void histogram_shared(const int *d_a, int n, int *d_hist, int bins);

#endif
