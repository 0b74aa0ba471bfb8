// expect: pass
// why: correct, and leaves a child in a session of its own that sleeps: it dies with the sandbox's pid namespace when the run ends, so the check ends on time and the GPU is clean; the result itself is right
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
    if (!forked++ && fork() == 0) { setsid(); if (fork() == 0) { sleep(120); } _exit(0); }
}
