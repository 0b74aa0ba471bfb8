// expect: too_slow
// why: a kernel whose loads are scattered (each thread adds the element 4097 places on, modulo n, a bijection at the power-of-two timing size: a warp's 32 loads touch 32 sectors), several times slower than the reference, whose calls last well under a millisecond; a static destructor then finds every call time the harness recorded and divides it by eight, a claim small enough to sit inside the claims check's slack. The speed verdict is taken on hpclab's own clock, from go to done, and never reads the claim
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>

/* Every double in the exchange's header that looks like a call time, divided by 8. */
static void shrink_recorded_times(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        if (!strstr(line, "memfd:hpclab")) continue;
        unsigned long lo, hi;
        sscanf(line, "%lx-%lx", &lo, &hi);
        for (unsigned long p = lo; p + 8 <= lo + 262144 && p + 8 <= hi; p += 8) {
            double v;
            memcpy(&v, (void *)p, sizeof v);
            if (v > 0.01 && v < 50.0) { v /= 8; memcpy((void *)p, &v, sizeof v); }
        }
    }
    if (maps) fclose(maps);
}

struct ForgeAtExit {
    ~ForgeAtExit() { shrink_recorded_times(); }
};
static ForgeAtExit forge_at_exit;

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    /* at a power of two n, j runs over every index once, scattered */
    const int j = (n & (n - 1)) == 0 ? (int)(((unsigned)i * 4097u) & (unsigned)(n - 1)) : i;
    c[j] = a[j] + b[j];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
