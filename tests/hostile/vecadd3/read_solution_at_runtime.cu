// expect: no_output
// why: at run time opens ../../solutions/vecadd3/vecadd3.cu and the checkout by absolute path to copy the answer's kernel source; neither exists in the sandbox, so it falls back to writing nothing
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
    FILE *f = fopen("../../solutions/vecadd3/vecadd3.cu", "r");
    if (!f) f = fopen("/work/main/solutions/vecadd3/vecadd3.cu", "r");
    if (!f) return;                      /* no answer to steal: nothing written */
    fclose(f);
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
