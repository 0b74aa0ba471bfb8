// expect: library_kernel
// why: every task counts with cub::DeviceHistogram::HistogramEven: right and fast, and not the student's own kernel; hpclab finds CUB's kernels among the program's launch stubs
// slow: CUB's headers (Thrust's too), 13 to 15 s of nvcc on an H200's 16 CPUs: the slow preset runs it; reduction/cub_reduce.cu keeps the verdict in the default one
#include "hpc.h"
#include "histogram.h"
#include <cub/cub.cuh>

static void cub_count(const int *d_a, int n, int *d_hist, int bins)
{
    void *tmp = NULL;
    size_t bytes = 0;
    cub::DeviceHistogram::HistogramEven(tmp, bytes, d_a, d_hist, bins + 1, 0, bins, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceHistogram::HistogramEven(tmp, bytes, d_a, d_hist, bins + 1, 0, bins, n);
    cudaFree(tmp);
}

void histogram_global(const int *d_a, int n, int *d_hist, int bins) { cub_count(d_a, n, d_hist, bins); }
void histogram_shared(const int *d_a, int n, int *d_hist, int bins) { cub_count(d_a, n, d_hist, bins); }
