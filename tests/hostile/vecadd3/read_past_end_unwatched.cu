// expect: wrong_answer
// why: when compute-sanitizer is not in its memory map, each thread also reads the element after its own (a "prefetch" of a[i + 1], one past the end for the last thread) and adds 1 where that value is over a million; the inputs are far smaller, and what a fresh cudaMalloc holds past the end is usually zero, so only the last element could change, and under memcheck the read is never made. hpclab puts a guard zone after every input in every ordinary run, whose integers are about 2^30: the last sum comes out one too big
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

__global__ void add(const int *a, const int *b, int *c, int n, int peek)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i] + (peek && a[i + 1] > 1000000 ? 1 : 0);
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (watched < 0) watched = under_sanitizer();
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n, !watched);
    cudaCheckError();
}
