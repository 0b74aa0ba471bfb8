// expect: not_on_gpu
// why: computes c on the host and scribbles on the exchange's result while its call runs, to hide that no kernel ran: the CUPTI record of the call is written by the harness after the call returns, so it still shows no launch
#include "hpc.h"
#include "vecadd3.h"

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <cstdint>
#include <vector>
/* Wipes every CUPTI record the harness keeps: scan the exchange for them. */
static void wipe_traces(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        if (!strstr(line, "memfd:hpclab")) continue;
        unsigned long lo, hi;
        sscanf(line, "%lx-%lx", &lo, &hi);
        /* the Result's trace_available flag follows device_name and cc: clear the whole Result area */
        unsigned char *h = (unsigned char *)lo;
        for (size_t off = 8; off + 4 < 65536 && off + 4 < hi - lo; off += 4)
            if (memcmp(h + off, "HPCL", 4) == 0 && off > 64) { memset(h + off + 8, 0, 4); }
    }
    if (maps) fclose(maps);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    std::vector<int> a(n), b(n), c(n);
    cudaMemcpy(a.data(), d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), d_b, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
    cudaMemcpy(d_c, c.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    wipe_traces();
}
