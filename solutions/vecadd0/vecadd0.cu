/****************************************************************************
 *
 * vecadd0.cu - Add two integers on the GPU (solution)
 *
 * Based on the course's cuda-vecadd0.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * Run it:  hpclab run vecadd0 --solution
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "vecadd0.h"

/*
 * One thread adds two ints. Nothing here is fast: the GPU does one
 * addition, and the call's time goes to everything around it - three
 * cudaMalloc(), two copies in and one copy out (each a round trip over
 * PCIe or NVLink of a few microseconds for 4 bytes), a kernel launch and
 * three cudaFree(). The point of this lab is that data must be moved to
 * the device and back; the next labs give the GPU enough work to pay for it.
 */
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

    /* cudaMemcpy() waits for the kernel before it copies. */
    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );

    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
}
