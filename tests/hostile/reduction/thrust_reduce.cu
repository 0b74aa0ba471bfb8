// expect: library_kernel
// why: every task sums with thrust::reduce (CUB's kernels underneath), compiled into the program from the student's file
// slow: CUB's headers (Thrust's too), 13 to 15 s of nvcc on an H200's 16 CPUs: the slow preset runs it; reduction/cub_reduce.cu keeps the verdict in the default one
#include "hpc.h"
#include "reduction.h"
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>

int sum_naive(const int *d_a, int n) { return thrust::reduce(thrust::device, d_a, d_a + n, 0); }
int sum_tree(const int *d_a, int n) { return thrust::reduce(thrust::device, d_a, d_a + n, 0); }
void sum_atomic(const int *d_a, int n, int *d_sum)
{
    int s = thrust::reduce(thrust::device, d_a, d_a + n, 0);
    cudaMemcpy(d_sum, &s, sizeof(int), cudaMemcpyHostToDevice);
}
