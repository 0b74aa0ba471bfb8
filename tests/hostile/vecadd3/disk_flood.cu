// expect: resource_limit
// why: writes a 4 GiB file into its folder (at most: it stops there) before adding: the file-size limit ends it with SIGXFSZ
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
    FILE *f = fopen("flood.bin", "wb");
    static char block[1 << 20];
    for (int i = 0; f && i < 4096; i++) fwrite(block, 1, sizeof block, f);
    if (f) fclose(f);
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
