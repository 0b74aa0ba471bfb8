// expect: compile_error
// why: defines cudaDeviceSynchronize itself, weak and doing nothing, so that the harness's wait after each call would return at once and its clock would stop before the kernel ends. A student's object may not define a CUDA runtime function the program uses, weak or not: refused before the link (run/link_check.h)
#include "hpc.h"
#include "vecadd3.h"

extern "C" __attribute__((weak)) cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

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
