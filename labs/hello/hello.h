/****************************************************************************
 *
 * hello.h - The function hpclab calls in this lab, and its contract
 *
 * Do not edit: hpclab compiles your hello.cu against this file.
 *
 ****************************************************************************/
#ifndef HELLO_H
#define HELLO_H

/*
 * hello(nblocks, nthreads) launches a kernel on nblocks blocks of nthreads
 * threads each, in which every thread prints exactly one line
 *
 *     Hello from block B, thread T
 *
 * with B = blockIdx.x and T = threadIdx.x (device printf, format
 * "Hello from block %d, thread %d\n").
 *
 * - 1 <= nblocks <= 16 and 1 <= nthreads <= 1024.
 * - There are no pointers: nothing to allocate or copy.
 * - hello() must WAIT for the kernel before it returns
 *   (cudaDeviceSynchronize() or cudaCheckError()): a launch returns at once,
 *   and the lines of a kernel nobody waited for come out too late.
 * - Other lines printed by the host (with the host's printf) are allowed
 *   and ignored by the check.
 */
void hello(int nblocks, int nthreads);

#endif
