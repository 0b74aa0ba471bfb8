// expect: library_kernel
// why: every task sums with CUB's DeviceReduce::Sum, its namespace wrapped in one of the file's own (CUB_WRAPPED_NAMESPACE mylib): the kernels' names no longer start with cub::, and the line table nvcc writes for the build still places their definitions in CUB's headers, outside the student's file
// slow: CUB's headers (Thrust's too), 13 to 15 s of nvcc on an H200's 16 CPUs: the slow preset runs it; reduction/cub_reduce.cu keeps the verdict in the default one
#include "hpc.h"
#include "reduction.h"
#define CUB_WRAPPED_NAMESPACE mylib  /* CUB's kernels in a namespace of its own choosing */
#include <cub/cub.cuh>

static int cub_sum(const int *d_a, int n)
{
    int *d_out;
    void *tmp = NULL;
    size_t bytes = 0;
    cudaMalloc(&d_out, sizeof(int));
    mylib::cub::DeviceReduce::Sum(tmp, bytes, d_a, d_out, n);
    cudaMalloc(&tmp, bytes);
    mylib::cub::DeviceReduce::Sum(tmp, bytes, d_a, d_out, n);
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
