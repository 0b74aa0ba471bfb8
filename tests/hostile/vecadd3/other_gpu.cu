// expect: pass
// why: looks for a GPU besides the one it was given (to run where no other check's timing waits for it): it forgets CUDA_VISIBLE_DEVICES before CUDA starts, then counts the CUDA devices and the /dev/nvidia<N> nodes it can open; finding more than one, it adds 1 to every sum. A pass says it found one GPU alone. On a one-GPU machine that is no proof; on two, graded with --gpus 0,1, the sandbox's device nodes are what it tests (scripts/gpu-suite.sh, part gpus, which also grades it without the sandbox, where it must fail)
#include "hpc.h"
#include "vecadd3.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void forget_visible_devices(void) { unsetenv("CUDA_VISIBLE_DEVICES"); }

static int gpus_in_reach(void)
{
    int nodes = 0, devices = 0;
    DIR *dev = opendir("/dev");
    if (dev) {
        struct dirent *e;
        while ((e = readdir(dev)) != NULL) {
            if (strncmp(e->d_name, "nvidia", 6) != 0 || e->d_name[6] < '0' || e->d_name[6] > '9') continue;
            char path[300];
            snprintf(path, sizeof path, "/dev/%s", e->d_name);
            const int fd = open(path, O_RDWR);
            if (fd >= 0) {
                ++nodes;
                close(fd);
            }
        }
        closedir(dev);
    }
    if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
    return nodes > devices ? nodes : devices;
}

__global__ void add(const int *a, const int *b, int *c, int n, int extra)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i] + extra;
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    static int seen = -1;
    if (seen < 0) seen = gpus_in_reach();
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n, seen > 1 ? 1 : 0);
    cudaCheckError();
}
