// hpclab-bench: kind=library tasks=global,shared title="CUB DeviceHistogram::HistogramEven"
/****************************************************************************
 *
 * cub.cu - the histogram through CUB's DeviceHistogram::HistogramEven
 *
 * Not part of the lesson: the yardstick for every task (the same counts,
 * left in d_hist on the device). CUB privatises too: each block counts
 * into a histogram in shared memory and adds it into the result, and it
 * sets the result to zero itself.
 *
 * - Bins of width 1 from 0 to bins: bins + 1 levels, lower level 0, upper
 *   level bins (excluded), so value v lands in bin v.
 * - CUB needs temporary device storage, whose size it tells on a first call
 *   with a NULL pointer. It is allocated on the first call (or a larger
 *   one, when a later size needs more) and kept in a static for the life of
 *   the process, so that the timed calls measure the histogram and not
 *   cudaMalloc / cudaFree. It is never freed: the process's exit releases it.
 *
 ****************************************************************************/
#include <cub/cub.cuh>
#include "hpc.h"
#include "histogram.h"

static void *d_temp = NULL;   /* CUB's temporary storage, kept across calls */
static size_t temp_bytes = 0; /* and its size */

static void cub_histogram( const int *d_a, int n, int *d_hist, int bins )
{
    size_t needed = 0;

    cudaSafeCall( cub::DeviceHistogram::HistogramEven(NULL, needed, d_a, d_hist, bins + 1, 0, bins, n) );
    if (needed > temp_bytes) {
        cudaSafeCall( cudaFree(d_temp) );
        cudaSafeCall( cudaMalloc(&d_temp, needed) );
        temp_bytes = needed;
    }
    cudaSafeCall( cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_a, d_hist, bins + 1, 0, bins, n) );
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    cub_histogram(d_a, n, d_hist, bins);
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    cub_histogram(d_a, n, d_hist, bins);
}
