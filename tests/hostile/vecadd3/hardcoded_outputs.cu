// expect: wrong_answer
// why: writes a constant (what a+b was once on the student's own machine) instead of computing: inputs are random per run
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = 42;
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
