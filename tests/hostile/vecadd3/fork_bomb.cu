// expect: time_limit
// why: forks up to 1000 processes that sleep 30 s, and computes right: the run's cgroup allows 512 processes and threads, the forks past that fail, and the kernel's pids.events counts them (RESOURCE LIMIT, said too); under compute-sanitizer, which waits for every process of the tree, the sleepers outlive the last call by more than 20 s: stopped, a time limit, which ranks first (measured on the H100)
#include "hpc.h"
#include "vecadd3.h"
#include <unistd.h>
#include <cstdlib>
static int bombed = 0;

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    for (int i = 0; !bombed && i < 1000; i++) if (fork() == 0) { sleep(30); _exit(0); }
    bombed = 1;
}
