/****************************************************************************
 *
 * streams.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your streams.cu against this file.
 *
 ****************************************************************************/
#ifndef STREAMS_H
#define STREAMS_H

#include <stddef.h>

/*
 * host_alloc(bytes) returns room for `bytes` bytes of HOST memory, and
 * host_free(p) gives back what host_alloc returned. hpclab allocates the
 * host vectors x and y of every call below with them (once per run, before
 * the calls), writes the inputs into x and reads the results from y: where
 * those vectors live is your choice, and it decides how fast the copies of
 * your calls are. host_alloc must not return NULL.
 */
void *host_alloc(size_t bytes);
void host_free(void *p);

/*
 * Both tasks compute y[i] = 2 * x[i] + 1 for 0 <= i < n, on the GPU.
 *
 * - x and y are HOST pointers to n ints each, allocated with host_alloc().
 *   Read x, never write it; write every element of y.
 * - n is any value >= 1: not a multiple of anything, necessarily.
 * - |x[i]| <= 2^29, so 2 * x[i] + 1 always fits an int.
 * - Allocate the device vectors in the call (cudaMalloc) and free them
 *   before returning (cudaFree). When the function returns, hpclab waits
 *   for the whole device and then reads y.
 */

/* scale_pinned: copy x to the device, one kernel, copy y back (cudaMemcpy). */
void scale_pinned(const int *x, int *y, int n);

/*
 * scale_overlap: the same, split into chunks, each on a stream of its own:
 * the chunk's copy in (cudaMemcpyAsync), its kernel and its copy out
 * (cudaMemcpyAsync), so that the chunks' copies and kernels run side by side.
 */
void scale_overlap(const int *x, int *y, int n);

#endif
