/****************************************************************************
 *
 * stencil.cu - 1-D stencil with a shared-memory cache
 *
 * Based on the course's cuda-stencil1d.c and cuda-stencil1d-shared.c
 * (Moreno Marzolla, "CUDA Programming", after Mark Harris's "CUDA C/C++
 * Basics").
 *
 * Each output is the sum of the 2*RADIUS+1 inputs around it:
 *
 *     out[i] = in[i] + in[i + 1] + ... + in[i + 2*RADIUS]
 *
 * (in[] already carries a halo of RADIUS elements at each end, so it is
 * n + 2*RADIUS long and out[] is n long). One thread computes one output.
 * Neighbouring threads need almost the same inputs: each input is used by
 * 2*RADIUS+1 threads. So the threads of a block cooperate: they first copy
 * the block's inputs into a cache in shared memory, each thread one
 * element and the first RADIUS threads also the halo on both sides, then
 * wait for each other with __syncthreads(), and only then read the cache.
 * Without the barrier a thread may read a cache element that its owner has
 * not written yet: a data race, whose wrong results come and go from run
 * to run.
 *
 * n is any size: the last block may have threads past the end. They must
 * not read past in[] nor write past out[], yet they must still reach the
 * barrier.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run stencil
 *     hpclab run stencil --n 1000       (any other size)
 *
 ****************************************************************************/
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    /* TODO 1: declare the block's cache of in[], an array of
       BLKDIM + 2*RADIUS ints in shared memory (__shared__), and compute
         gindex = threadIdx.x + blockIdx.x * blockDim.x   the output this
                                                          thread computes
         lindex = threadIdx.x + RADIUS                    where its centre,
                                       in[gindex + RADIUS], goes in the cache
       and bsize, the number of outputs this block computes: blockDim.x,
       but fewer in the last block when n is not a multiple of BLKDIM. */

    /* TODO 2: copy this thread's centre into the cache: if gindex < n,
       temp[lindex] = in[gindex + RADIUS]. */

    /* TODO 3: the first RADIUS threads (threadIdx.x < RADIUS) also copy
       the halo: the RADIUS inputs before the block's first centre go to
       temp[0 .. RADIUS-1], the RADIUS inputs after the block's LAST centre
       go right after it in the cache. Where is the last centre in a partial
       last block? (Not at blockDim.x - 1: stay inside in[].) */

    /* TODO 4: wait until the whole cache is written. Every thread of the
       block must reach the barrier, also those with gindex >= n. */

    /* TODO 5: if gindex < n, add up temp[lindex - RADIUS .. lindex + RADIUS]
       and store the sum into out[gindex]. */
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
