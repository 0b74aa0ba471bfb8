// expect: gpu_fault
// why: writes through a null device pointer in the kernel, and checks nothing itself
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    /* 256 GiB past the output: more than the GPU has, mapped to nothing
       (a store through a null pointer would be undefined, and dropped) */
    int *far = c + (1ll << 36);
    if (i < n) { c[i] = a[i] + b[i]; if (i == 0) far[i] = 1; }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
}
