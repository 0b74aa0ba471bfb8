// hpclab-bench: kind=naive tasks=shared title="No shared memory: each thread reads its 7 inputs from global memory"
/****************************************************************************
 *
 * naive.cu - stencil without shared memory (the course's cuda-stencil1d.c)
 *
 * A benchmark variant, not a solution of the task: the task asks for a
 * shared-memory cache, which this version leaves out (hpclab check says
 * no_shared_memory; tests/broken/stencil/naive_no_shared.cu is the same
 * kernel as a broken example). It is here as the baseline the cache is
 * measured against.
 *
 ****************************************************************************/
#include "hpc.h"
#include "stencil.h"

#define BLKDIM 1024

/*
 * One thread per output, reading its 2*RADIUS+1 inputs straight from
 * global memory.
 *
 * Why it is fast, or not: each input is read by 7 threads, so the kernel
 * asks for 7 times the bytes it needs; on GPUs without data caches that
 * was 7 trips to device memory. On a recent GPU (H100) the 7 reads of
 * neighbouring threads fall in the same cache lines, which the L1 cache
 * serves after the first trip, so device memory sees each input about
 * once, and there is no barrier to wait at. On an H100 it beats the
 * lesson's cache of one output per thread in blocks of 1024 (1.98 against
 * 1.64 TB/s at 2^26 outputs, in the grading model's measurements); the
 * tuned reference's cache (tuned.cu), which keeps many loads in flight,
 * should beat both.
 */
__global__ void stencil1d_kernel( const int *in, int *out, int n )
{
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int result = 0, offset;

    if (gindex < n) {
        for (offset = 0; offset <= 2 * RADIUS; offset++) {
            result += in[gindex + offset];
        }
        out[gindex] = result;
    }
}

void stencil1d( const int *d_in, int *d_out, int n )
{
    stencil1d_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_in, d_out, n);
    cudaCheckError();
}
