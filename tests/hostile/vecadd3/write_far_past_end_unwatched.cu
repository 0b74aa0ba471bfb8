// expect: cuda_error
// why: when compute-sanitizer is not in its memory map, the last thread of each call also writes a marker 1 MiB past the end of c, far past the 64 KiB guard zone whose poison shows a write just past the end; under memcheck it never does, and every sum is right. hpclab places every device buffer of an ordinary run so that its guard zone ends against an unmapped page of the driver's virtual memory (grader/harness/guarded_memory.h): the write faults where it is made, an illegal address that the program's own cudaCheckError() reports
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>

static int watched = -1;

static bool under_sanitizer(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    bool found = false;
    while (maps && fgets(line, sizeof line, maps)) found = found || strstr(line, "compute-sanitizer") || strstr(line, "libsanitizer") || strstr(line, "TreeLauncher");
    if (maps) fclose(maps);
    return found;
}

__global__ void add(const int *a, const int *b, int *c, int n, int mark)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
    if (mark && i == n - 1) c[n + 262144] = 1;  /* 1 MiB past the end */
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (watched < 0) watched = under_sanitizer();
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n, !watched);
    cudaCheckError();
}
