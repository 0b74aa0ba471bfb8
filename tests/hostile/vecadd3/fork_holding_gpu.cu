// expect: time_limit
// why: correct, and leaves a process behind that sleeps 120 s (measured on the H200): in the plain runs it dies with the sandbox's pid namespace; compute-sanitizer, though, waits for every process of the program's tree, so the sanitizer run does not end: 20 s after its last call is done it is stopped, a time limit (a finding)
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
