// expect: too_slow
// why: a slow kernel that tries to rewrite the speed baseline's times: it walks /proc for other hpclab lab programs and opens their memfd through /proc/<pid>/fd; in the sandbox's pid namespace it sees none, and outside it the baseline is not dumpable: its own time stands, too slow
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <dirent.h>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
static int tried = 0;
static void attack_baseline(void)
{
    DIR *proc = opendir("/proc");
    struct dirent *e;
    char path[300];
    while (proc && (e = readdir(proc))) {
        for (int fd = 3; fd < 16; fd++) {
            snprintf(path, sizeof path, "/proc/%s/fd/%d", e->d_name, fd);
            int h = open(path, O_RDWR);
            if (h >= 0) { tried++; close(h); }
        }
    }
    if (proc) closedir(proc);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) { int s = 0; for (int r = 0; r < 64; r++) s += a[(i * 7 + r) % n] * 0; c[i] = a[i] + b[i] + s; }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    attack_baseline();
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
