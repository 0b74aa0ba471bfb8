// expect: crash
// why: computes the answer, then calls exit(0) inside the entry point: the harness never finishes, the parent sees the program end before its calls
#include "hpc.h"
#include "vecadd3.h"
#include <cstdlib>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    cudaDeviceSynchronize();
    exit(0);
}
