/****************************************************************************
 *
 * hello.cu - Hello, world from the GPU (solution)
 *
 * Based on the course's cuda-hello0.cu and cuda-hello1.cu (Moreno
 * Marzolla, "CUDA Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * Run it:  hpclab run hello --solution
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

/*
 * Every thread prints one line. This kernel is slow, and it does not
 * matter: device printf() writes each line into a buffer in GPU memory
 * (1 MB by default) through a shared data structure, so the threads queue
 * on it, and the host prints the buffer only at the next synchronisation
 * point. Lines of the threads of one warp tend to come out together, but
 * the order of warps and blocks is whatever the GPU happened to schedule:
 * never rely on it. printf() in a kernel is for debugging small launches.
 */
__global__ void say_hello( void )
{
    printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x);
}

void hello( int nblocks, int nthreads )
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    say_hello<<<nblocks, nthreads>>>();
    /* Check the launch and wait for the kernel: its lines are printed
       during this wait, before hello() returns. */
    cudaCheckError();
}
