/****************************************************************************
 *
 * hello.cu - Hello, world from the GPU
 *
 * Based on the course's cuda-hello0.cu and cuda-hello1.cu (Moreno
 * Marzolla, "CUDA Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * A CUDA program runs on two processors: the host (the CPU, which runs
 * main() and every ordinary function) and the device (the GPU, which runs
 * kernels: functions marked __global__). The host starts a kernel with a
 * launch
 *
 *     kernel<<<nblocks, nthreads>>>( arguments );
 *
 * which runs the kernel once in each of nthreads threads of each of
 * nblocks blocks. Inside the kernel, blockIdx.x says which block a thread
 * belongs to and threadIdx.x which thread of its block it is.
 *
 * Two things to learn here:
 *
 * - every thread runs the whole kernel: one printf in the kernel prints
 *   nblocks * nthreads lines, in an order nobody promises;
 *
 * - a launch is asynchronous: it returns at once, while the GPU is still
 *   working. The host must wait for the kernel (cudaDeviceSynchronize())
 *   before it can count on what the kernel did, its printed lines included.
 *
 * Run it (builds it, runs it and checks every line):
 *
 *     hpclab run hello
 *     hpclab run hello --blocks 3 --threads 5     (another launch)
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

__global__ void say_hello( void )
{
    /* TODO 1: print one line with printf, exactly in the format
       "Hello from block %d, thread %d\n", with the number of this
       thread's block (blockIdx.x) and the number of this thread in its
       block (threadIdx.x). */
}

void hello( int nblocks, int nthreads )
{
    /* This line runs on the host, once. */
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);

    /* TODO 2: launch say_hello on nblocks blocks of nthreads threads
       each. One block of one thread, as below, is not what is asked. */
    say_hello<<<1, 1>>>();

    /* TODO 3: the launch returned at once, and the GPU may not even have
       started. Wait here until the kernel has finished, with
       cudaDeviceSynchronize() or cudaCheckError() (which also checks
       the launch for errors). */
}
