// expect: resource_limit
// why: mallocs and touches 20 GiB of host memory, a gigabyte at a time, before adding: the run's cgroup allows 4 GiB and three times its data, and the kernel's OOM killer ends it (memory.events says so); without a cgroup this would go through
#include "hpc.h"
#include "vecadd3.h"
#include <cstdlib>
#include <cstring>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    for (int i = 0; i < 20; i++) {
        char *p = (char *)malloc(1ull << 30);
        if (!p) abort();
        memset(p, 1, 1ull << 30);
    }
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
