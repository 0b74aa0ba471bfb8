// expect: library_kernel
// why: every task sums with thrust::reduce (CUB's kernels underneath), compiled into the program from the student's file
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
