// expect: library_kernel
// why: every task scans with cub::DeviceScan::InclusiveSum: right and fast, and not the student's own kernel; hpclab finds CUB's kernels among the program's launch stubs
// slow: CUB's headers (Thrust's too), 13 to 15 s of nvcc on an H200's 16 CPUs: the slow preset runs it; reduction/cub_reduce.cu keeps the verdict in the default one
#include "hpc.h"
#include "scan.h"
#include <cub/cub.cuh>

static void cub_inclusive(const int *d_a, int n, int *d_b)
{
    void *tmp = NULL;
    size_t bytes = 0;
    cub::DeviceScan::InclusiveSum(tmp, bytes, d_a, d_b, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceScan::InclusiveSum(tmp, bytes, d_a, d_b, n);
    cudaFree(tmp);
}

void scan_blocks(const int *d_a, int n, int *d_b)
{
    for (int s = 0; s < n; s += SEGMENT) cub_inclusive(d_a + s, n - s < SEGMENT ? n - s : SEGMENT, d_b + s);
}

void scan(const int *d_a, int n, int *d_b) { cub_inclusive(d_a, n, d_b); }
