// expect: tampering
// why: computes nothing; finds the exchange memfd through /proc/self/maps, maps it again and writes every call done and the run finished, then exits 0 from inside the first call: hpclab saw no call end, so the claim is a lie (and the header include from grader/ is outside the sandbox: a compile error there would also stop it; it is written inline)
#include "hpc.h"
#include "vecadd3.h"

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <cstdint>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
/* The exchange header's first fields, copied from the course's grader
   (stage and calls_done live in its Result). */
static void claim_finished(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        if (!strstr(line, "memfd:hpclab")) continue;
        unsigned long lo, hi;
        sscanf(line, "%lx-%lx", &lo, &hi);
        unsigned char *h = (unsigned char *)lo;
        /* walk the header for the Result's magic "HPCL" after the Job's */
        for (size_t off = 8; off + 16 < 65536 && off + 16 < hi - lo; off += 4) {
            if (memcmp(h + off, "HPCL", 4) == 0) {
                uint32_t *r = (uint32_t *)(h + off);
                r[1] = 3;       /* stage = finished */
                r[2] = 64;      /* calls_done */
            }
        }
    }
    if (maps) fclose(maps);
    fflush(stdout);
    _exit(0);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    claim_finished();
}
