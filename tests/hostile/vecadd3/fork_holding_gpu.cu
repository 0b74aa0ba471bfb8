// expect: pass
// why: correct; a forked child allocates 2 GB of GPU memory and sleeps: killed with the run (pid namespace), and the GPU's memory comes back before the canary runs, so the verdict is the result's
#include "hpc.h"
#include "vecadd3.h"
#include <unistd.h>
#include <cstdlib>
static int forked = 0;

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    if (!forked++ && fork() == 0) { void *p; cudaMalloc(&p, 2000000000); sleep(120); _exit(0); }
}
