// expect: not_on_gpu
// why: the vectors are copied to the host, added by a loop and the result copied back: every element is right and nothing is written out of place, but no kernel runs in the call (and it is slow too, a lesser finding).
/*
 * vecadd3.cu with one mistake: the addition is done by the CPU.
 */
#include <stdlib.h>
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* MISTAKE: the host does the work instead of
       add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n) */
    const size_t size = (size_t)n * sizeof(int);
    int *a = (int *)malloc(size);
    int *b = (int *)malloc(size);
    int *c = (int *)malloc(size);
    cudaSafeCall( cudaMemcpy(a, d_a, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaMemcpy(b, d_b, size, cudaMemcpyDeviceToHost) );
    for (int i = 0; i < n; i++) {
        c[i] = a[i] + b[i];
    }
    cudaSafeCall( cudaMemcpy(d_c, c, size, cudaMemcpyHostToDevice) );
    free(a);
    free(b);
    free(c);
}
