// expect: tampering
// why: a slow kernel (it loops 200 times per element) that then scans the exchange for its own call records and writes 0.001 ms into every time it finds: hpclab's clock saw each call take milliseconds
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>
static void shrink_times(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        if (!strstr(line, "memfd:hpclab")) continue;
        unsigned long lo, hi;
        sscanf(line, "%lx-%lx", &lo, &hi);
        for (unsigned long p = lo; p + sizeof(double) <= lo + 65536 && p + 8 <= hi; p += 8) {
            double v;
            memcpy(&v, (void *)p, sizeof v);
            if (v > 0.05 && v < 10000.0) { v = 0.001; memcpy((void *)p, &v, sizeof v); }
        }
    }
    if (maps) fclose(maps);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    /* 200 scattered reads per element, whose sum the compiler cannot drop */
    if (i < n) { int s = 0; for (int r = 0; r < 200; r++) s += a[(i + 977 * r) % n]; c[i] = a[i] + b[i] + (s == 123456789); }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    cudaDeviceSynchronize();
    shrink_times();
}
