// hpclab-bench: kind=library tasks=atomic title="CUB DeviceReduce::Sum"
/****************************************************************************
 *
 * cub.cu - the sum through CUB's DeviceReduce::Sum
 *
 * Not part of the lesson: the yardstick for the atomic task (one pass on
 * the device, the result left in *d_sum). CUB's reduction reads several
 * elements per thread with vector loads in a grid-stride loop, reduces each
 * block with warp shuffles, and finishes the blocks' sums with a second,
 * one-block kernel instead of atomics.
 *
 * - CUB needs temporary device storage, whose size it tells on a first call
 *   with a NULL pointer. It is allocated on the first call of sum_atomic
 *   (or a larger one, when a later n needs more) and kept in a static for
 *   the life of the process, so that the timed calls measure the reduction
 *   and not cudaMalloc / cudaFree. It is never freed: the process's exit
 *   releases it.
 * - With int inputs CUB adds in int: an overflow wraps around, as the
 *   lab's contract says.
 * - sum_naive and sum_tree (not benchmarked in this variant) use the same
 *   reduction and copy the result back to the host.
 *
 ****************************************************************************/
#include <cub/cub.cuh>
#include "hpc.h"
#include "reduction.h"

static void *d_temp = NULL;   /* CUB's temporary storage, kept across calls */
static size_t temp_bytes = 0; /* and its size */

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    size_t needed = 0;

    cudaSafeCall( cub::DeviceReduce::Sum(NULL, needed, d_a, d_sum, n) );
    if (needed > temp_bytes) {
        cudaSafeCall( cudaFree(d_temp) );
        cudaSafeCall( cudaMalloc(&d_temp, needed) );
        temp_bytes = needed;
    }
    cudaSafeCall( cub::DeviceReduce::Sum(d_temp, temp_bytes, d_a, d_sum, n) );
    cudaCheckError();
}

/* The total through sum_atomic, copied back to the host. */
static int sum_to_host( const int *d_a, int n )
{
    int *d_sum, sum;

    cudaSafeCall( cudaMalloc((void **)&d_sum, sizeof(int)) );
    sum_atomic(d_a, n, d_sum);
    cudaSafeCall( cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_sum) );
    return sum;
}

int sum_naive( const int *d_a, int n )
{
    return sum_to_host(d_a, n);
}

int sum_tree( const int *d_a, int n )
{
    return sum_to_host(d_a, n);
}
