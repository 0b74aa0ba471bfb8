// hpclab-bench: kind=library tasks=sum,max title="CUB DeviceReduce::Sum and DeviceReduce::Max"
/****************************************************************************
 *
 * cub.cu - the sum and the maximum through CUB's DeviceReduce
 *
 * Not part of the lesson: the yardstick. CUB's reduction reads several
 * elements per thread with vector loads in a grid-stride loop, reduces each
 * block with warp shuffles, and finishes the blocks' results with a second,
 * one-block kernel instead of atomics.
 *
 * - CUB needs temporary device storage, whose size it tells on a first call
 *   with a NULL pointer. It is allocated on the first call (or a larger one,
 *   when a later n needs more) and kept in a static for the life of the
 *   process, so that the timed calls measure the reduction and not
 *   cudaMalloc / cudaFree. It is never freed: the process's exit releases
 *   it.
 * - With int inputs CUB adds in int: an overflow wraps around, as the lab's
 *   contract says. CUB writes the result itself: *d_sum and *d_max need no
 *   start value.
 *
 ****************************************************************************/
#include <cub/cub.cuh>
#include "hpc.h"
#include "warpreduce.h"

static void *d_temp = NULL;   /* CUB's temporary storage, kept across calls */
static size_t temp_bytes = 0; /* and its size */

/* d_temp holds at least `needed` bytes. */
static void reserve( size_t needed )
{
    if (needed > temp_bytes) {
        cudaSafeCall( cudaFree(d_temp) );
        cudaSafeCall( cudaMalloc(&d_temp, needed) );
        temp_bytes = needed;
    }
}

void reduce_sum( const int *d_a, int n, int *d_sum )
{
    size_t needed = 0;

    cudaSafeCall( cub::DeviceReduce::Sum(NULL, needed, d_a, d_sum, n) );
    reserve(needed);
    cudaSafeCall( cub::DeviceReduce::Sum(d_temp, temp_bytes, d_a, d_sum, n) );
    cudaCheckError();
}

void reduce_max( const int *d_a, int n, int *d_max )
{
    size_t needed = 0;

    cudaSafeCall( cub::DeviceReduce::Max(NULL, needed, d_a, d_max, n) );
    reserve(needed);
    cudaSafeCall( cub::DeviceReduce::Max(d_temp, temp_bytes, d_a, d_max, n) );
    cudaCheckError();
}
