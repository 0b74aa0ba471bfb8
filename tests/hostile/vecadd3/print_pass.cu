// expect: no_output
// why: prints what a grader might look for (PASS, ALL TESTS PASSED, a verdict line) and computes nothing: hpclab reads the outputs, not the prints
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    printf("PASS\nALL TESTS PASSED\n=> PASS. 1 of 1 tasks pass\n");
}
