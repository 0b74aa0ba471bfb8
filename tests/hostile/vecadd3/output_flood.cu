// expect: output_limit
// why: prints 3 MiB from the host, then computes right: more than hpclab keeps
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
    for (int i = 0; i < 60000; i++) printf("%050d\n", i);
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
