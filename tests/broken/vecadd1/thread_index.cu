// expect: wrong_answer
// why: index = threadIdx.x in a grid of n blocks of 1 thread: every thread has index 0, so only c[0] is computed; the copy back brings the rest of d_c as the GPU left it (zeros from a fresh cudaMalloc, seen on the H200), so c[1] is a wrong value, not hpclab's poison; nothing out of bounds, the launch shape is the lesson's.
/*
 * vecadd1.cu with one mistake: the index is the thread's, in blocks of one thread.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x; /* MISTAKE: blockIdx.x (one thread per block) */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd1( const int *a, const int *b, int *c, int n )
{
    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<n, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
