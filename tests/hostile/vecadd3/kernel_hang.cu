// expect: time_limit
// why: a kernel whose loop never ends for the last thread: the run's wall limit stops it
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    /* the last thread waits for a value no one writes: each read is a
       volatile load of global memory, which the compiler must keep */
    volatile const int *watched = a;
    if (i == n - 1) while (watched[0] != 0x7FBADBAD || watched[0] == 0x7FBADBAD) {}
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
