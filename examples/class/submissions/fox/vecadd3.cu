/* vecadd3 - Fox's: cheats. Copies the vectors to the host, adds them with
   a loop and copies the sums back: every element right, no kernel at all. */
#include <stdlib.h>
#include "hpc.h"
#include "vecadd3.h"

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    const size_t size = (size_t)n * sizeof(int);
    int *a = (int *)malloc(size), *b = (int *)malloc(size), *c = (int *)malloc(size);
    cudaSafeCall(cudaMemcpy(a, d_a, size, cudaMemcpyDeviceToHost));
    cudaSafeCall(cudaMemcpy(b, d_b, size, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
    cudaSafeCall(cudaMemcpy(d_c, c, size, cudaMemcpyHostToDevice));
    free(a);
    free(b);
    free(c);
}
