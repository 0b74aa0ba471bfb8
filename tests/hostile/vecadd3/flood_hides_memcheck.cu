// expect: memcheck
// why: reads one element past the end of a (memcheck finds it) and prints 850 KB of fake sanitizer lines first (under the output limit), to bury the sanitizer's report in stdout: the report goes to the tool's own log, and its exit status says so
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i] + (i == n - 1 ? (a[i + 1] == 123456789) : 0);
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    static bool flooded = false;
    for (int i = 0; !flooded && i < 17000; i++) printf("========= ERROR SUMMARY: 0 errors ...............\n");
    flooded = true;
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
