// expect: crash
// why: exit(0) at the end of add_on_device(), as if it were the course program's main: *c is right, but the process ends inside the first call, before the harness has its results, which is "the program ended before it finished".
/*
 * vecadd0.cu with one mistake: the function ends the program instead of
 * returning.
 */
#include <stdio.h>
#include <stdlib.h>
#include "hpc.h"
#include "vecadd0.h"

__global__ void add( const int *a, const int *b, int *c )
{
    *c = *a + *b;
}

void add_on_device( const int *a, const int *b, int *c )
{
    int *d_a, *d_b, *d_c; /* device copies of *a, *b, *c */
    const size_t size = sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );

    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<1, 1>>>(d_a, d_b, d_c);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );

    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );

    printf("%d + %d = %d\n", *a, *b, *c);
    exit(EXIT_SUCCESS); /* MISTAKE: return, do not end the program */
}
