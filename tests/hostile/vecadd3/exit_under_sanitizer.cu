// expect: tampering
// why: correct in every ordinary run, but exits 0 at its first call whenever compute-sanitizer's libraries are in its memory map, so that the sanitizer never sees a launch (a file with an out-of-bounds access would hide it this way): an older hpclab said "did not finish" three times and then PASS. A sanitizer run that ends cleanly without the sanitizer's own report, its calls not done, is tampering
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>
#include <unistd.h>

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
    if (under_sanitizer()) {
        fflush(stdout);
        _exit(0);
    }
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
