// hpclab-bench: kind=library tasks=scan title="CUB DeviceScan::InclusiveSum"
/****************************************************************************
 *
 * cub.cu - the scan through CUB's DeviceScan::InclusiveSum
 *
 * Not part of the lesson: the yardstick for the scan task. CUB scans in a
 * single pass with decoupled look-back (Merrill and Garland): each block
 * scans its tile, publishes its total, and finds its offset from the
 * totals and prefixes its predecessors have published.
 *
 * - CUB needs temporary device storage, whose size it tells on a first call
 *   with a NULL pointer. It is allocated on the first call (or a larger
 *   one, when a later n needs more) and kept in a static for the life of
 *   the process, so that the timed calls measure the scan and not
 *   cudaMalloc / cudaFree. It is never freed: the process's exit releases it.
 * - scan_blocks (not benchmarked in this variant) scans each segment with
 *   the same call, one segment at a time: slow, and only for completeness.
 *
 ****************************************************************************/
#include <cub/cub.cuh>
#include "hpc.h"
#include "scan.h"

static void *d_temp = NULL;   /* CUB's temporary storage, kept across calls */
static size_t temp_bytes = 0; /* and its size */

static void cub_scan( const int *d_a, int n, int *d_b )
{
    size_t needed = 0;

    cudaSafeCall( cub::DeviceScan::InclusiveSum(NULL, needed, d_a, d_b, n) );
    if (needed > temp_bytes) {
        cudaSafeCall( cudaFree(d_temp) );
        cudaSafeCall( cudaMalloc(&d_temp, needed) );
        temp_bytes = needed;
    }
    cudaSafeCall( cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_a, d_b, n) );
}

void scan_blocks( const int *d_a, int n, int *d_b )
{
    int start;
    for (start = 0; start < n; start += SEGMENT) {
        cub_scan(d_a + start, (n - start < SEGMENT ? n - start : SEGMENT), d_b + start);
    }
}

void scan( const int *d_a, int n, int *d_b )
{
    cub_scan(d_a, n, d_b);
}
