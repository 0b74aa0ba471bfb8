/* vecadd3 - Eve's: the loop meant to stride over the elements never
   advances, so the threads of the last element spin forever: it hangs. */
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    int index = threadIdx.x + blockIdx.x * blockDim.x;
    while (index < n) {
        c[index] = a[index] + b[index];
        if (index != n - 1) index += blockDim.x * gridDim.x;
    }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
