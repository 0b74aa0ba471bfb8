// expect: time_limit
// why: correct, but when compute-sanitizer's libraries are in its memory map (found by their names: a program named after this file has the word "sanitizer" in its own path) it spins forever: the sanitizer run's time-out is a finding of its own
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>
static bool under_sanitizer(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    bool found = false;
    while (maps && fgets(line, sizeof line, maps)) found = found || strstr(line, "compute-sanitizer") || strstr(line, "libsanitizer") || strstr(line, "TreeLauncher");
    if (maps) fclose(maps);
    return found;
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (under_sanitizer()) { volatile int spin = 1; while (spin) {} }
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
