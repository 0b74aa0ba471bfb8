/****************************************************************************
 *
 * scan.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your scan.cu against this file.
 *
 ****************************************************************************/
#ifndef SCAN_H
#define SCAN_H

/* The length of a segment of scan_blocks, and the elements one block of
   the lesson's kernel scans: 2 per thread, 512 threads. */
#define SEGMENT 1024

/*
 * Both functions compute inclusive prefix sums (a scan) of the n ints
 * a[0], a[1], ..., a[n-1] into b[0], ..., b[n-1].
 *
 * - d_a is a DEVICE pointer to n ints: hpclab allocated it with cudaMalloc()
 *   and copied the input in. Read it, never write it.
 * - d_b is a DEVICE pointer to n ints, which hpclab fills with garbage
 *   before the call: every element must be written.
 * - n is any value >= 1: neither a multiple of SEGMENT nor a power of two,
 *   necessarily.
 * - The sums are computed in int: where they overflow, they wrap around
 *   (two's complement), as int additions on the GPU do in any order.
 * - Launch and return: hpclab waits for the GPU before it reads d_b.
 */

/*
 * scan_blocks(d_a, n, d_b): each segment of SEGMENT elements on its own:
 * b[i] = a[s] + a[s+1] + ... + a[i], where s = i - i % SEGMENT is where
 * i's segment starts (the last segment may be shorter). One block per
 * segment, in shared memory, with the work-efficient scan (an up-sweep
 * that builds a tree of partial sums, a down-sweep that hands them back
 * down).
 */
void scan_blocks(const int *d_a, int n, int *d_b);

/*
 * scan(d_a, n, d_b): the whole array: b[i] = a[0] + a[1] + ... + a[i].
 * Reduce-then-scan: the segments scanned as in scan_blocks, their sums
 * scanned in turn (the same function, on an array SEGMENT times shorter),
 * and each segment's offset added to its elements.
 */
void scan(const int *d_a, int n, int *d_b);

#endif
