// expect: library_kernel
// why: every task sums with cub::DeviceReduce::Sum: right and fast, and not the student's own kernel; hpclab finds CUB's kernels among the program's launch stubs
#include "hpc.h"
#include "reduction.h"
#include <cub/cub.cuh>

static int cub_sum(const int *d_a, int n)
{
    int *d_out;
    void *tmp = NULL;
    size_t bytes = 0;
    cudaMalloc(&d_out, sizeof(int));
    cub::DeviceReduce::Sum(tmp, bytes, d_a, d_out, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceReduce::Sum(tmp, bytes, d_a, d_out, n);
    int s = 0;
    cudaMemcpy(&s, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(tmp);
    cudaFree(d_out);
    return s;
}

int sum_naive(const int *d_a, int n) { return cub_sum(d_a, n); }
int sum_tree(const int *d_a, int n) { return cub_sum(d_a, n); }
void sum_atomic(const int *d_a, int n, int *d_sum)
{
    int s = cub_sum(d_a, n);
    cudaMemcpy(d_sum, &s, sizeof(int), cudaMemcpyHostToDevice);
}
