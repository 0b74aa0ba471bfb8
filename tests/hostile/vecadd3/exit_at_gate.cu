// expect: tampering
// why: correct in every correctness run; a static constructor looks for "--gate" among the program's arguments (hpclab's timed runs start behind a gate) and exits 0 at once, before the program is ready: an older hpclab counted such a timed run as cancelled and gave no speed finding. A timed program that ends cleanly before its calls is tampering
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstring>
#include <unistd.h>

static bool started_behind_gate(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f == NULL) return false;
    char args[8192];
    const size_t n = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (strcmp(args + i, "--gate") == 0) return true;
    return false;
}

struct LeaveAtGate {
    LeaveAtGate() { if (started_behind_gate()) _exit(0); }
};
static LeaveAtGate leave_at_gate;

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
