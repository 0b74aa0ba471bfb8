/****************************************************************************
 *
 * stencil.cu - 1-D stencil with a shared-memory cache (solution)
 *
 * Based on the course's cuda-stencil1d.c and cuda-stencil1d-shared.c
 * (Moreno Marzolla, "CUDA Programming", after Mark Harris's "CUDA C/C++
 * Basics").
 *
 * Run it:  hpclab run stencil --solution
 *
 ****************************************************************************/
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

/*
 * One thread per output; each block first copies the part of in[] its
 * outputs need (BLKDIM + 2*RADIUS ints) into shared memory, then every
 * thread adds up its 2*RADIUS+1 neighbours from there.
 *
 * Why it is fast, or not: the copy into shared memory is coalesced
 * (consecutive threads read consecutive ints), each input element comes
 * from device memory about once, and the 2*RADIUS+1 = 7 reads of each
 * element then hit fast on-chip memory. That is what made this version
 * worth it on GPUs without data caches. On a recent GPU (H100) the L1
 * cache already serves a plain kernel's repeated reads of in[], and the
 * shared version pays for what the plain one does not: a barrier in every
 * block (no thread may start adding until the slowest warp has loaded), and
 * a halo copied by only RADIUS threads of one warp. Either way the kernel
 * does 6 additions per 8 bytes moved, so memory bandwidth bounds it: it can
 * at best match a copy of in[] into out[]. The speed baseline,
 * bench/stencil/tuned.cu, keeps the cache and gets closer to that: 8
 * outputs per thread in blocks of 256, so more loads are on their way and
 * a barrier comes once per 2048 outputs.
 */
__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    /* 1: the cache, and where this thread's output and centre are */
    __shared__ int temp[BLKDIM + 2 * RADIUS];
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x; /* the output this thread computes */
    const int lindex = threadIdx.x + RADIUS; /* where its centre in[gindex + RADIUS] goes in temp[] */
    /* How many outputs this block computes: blockDim.x, except in the last
       block when n is not a multiple of BLKDIM. */
    const int first = blockIdx.x * blockDim.x;
    const int bsize = (n - first < BLKDIM ? n - first : BLKDIM);
    int result = 0, offset;

    /* 2: every thread copies its centre... */
    if (gindex < n) {
        temp[lindex] = in[gindex + RADIUS];
    }

    /* 3: ...and the first RADIUS threads the halo: RADIUS inputs before the
       first centre, and RADIUS inputs after the LAST centre of the block
       (bsize, not blockDim.x: in a partial last block the lecture's
       in[gindex + RADIUS + blockDim.x] would be past the end of in[]). These
       threads exist in every block (BLKDIM >= RADIUS), even when bsize < RADIUS. */
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        temp[lindex + bsize] = in[gindex + RADIUS + bsize];
    }

    /* 4: every thread reaches the barrier, those past n included: nobody
       reads temp[] before all of it is written. */
    __syncthreads();

    /* 5: the sum of the 2*RADIUS+1 inputs around the centre */
    if (gindex < n) {
        for (offset = -RADIUS; offset <= RADIUS; offset++) {
            result += temp[lindex + offset];
        }
        out[gindex] = result;
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
