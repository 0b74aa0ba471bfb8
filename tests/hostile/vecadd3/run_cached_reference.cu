// expect: no_output
// why: starts the reference program hpclab built (build/*/lab-programs/vecadd3/solution/...) with its own exchange: the sandbox shows no build tree, so the program is not found and nothing is written
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
    if (system("ls /work/main/build/*/lab-programs/vecadd3/solution/vecadd3-solution >/dev/null 2>&1") != 0) return;
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
