// expect: time_limit
// why: the host sleeps forever in the entry point (after a correct launch)
#include "hpc.h"
#include "vecadd3.h"
#include <unistd.h>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    for (;;) sleep(1);
}
