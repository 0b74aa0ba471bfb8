/* vecadd3 - Cy's: right, but vecadd1's layout (n blocks of ONE thread): slow. */
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int index = blockIdx.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<n, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
