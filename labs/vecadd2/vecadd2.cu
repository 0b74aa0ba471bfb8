/****************************************************************************
 *
 * vecadd2.cu - Vector addition with one block of n threads
 *
 * Based on the course's cuda-vecadd2.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * vecadd1 used n blocks of one thread each. A block can also hold many
 * threads: a launch
 *
 *     add<<<1, n>>>( ... );
 *
 * runs one block of n threads, and each thread finds out which one it is
 * from threadIdx.x (0, 1, ..., n - 1), so thread i can add a[i] and b[i].
 *
 * But a block cannot be as large as you like: the GPU has a maximum number
 * of threads per block (1024 on every GPU of recent years; ask the GPU,
 * do not assume). A launch with more threads than that fails and runs
 * nothing. So vecadd2() must check n first, and refuse politely when the
 * vectors are too long for one block: vecadd3 shows how to go past it.
 *
 * The memory management is given below, as in vecadd1: your part is the
 * kernel, the check of n and the launch.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run vecadd2
 *     hpclab run vecadd2 --n 1000       (any other size)
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "vecadd2.h"

__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* TODO 1: this thread adds the element whose index is the thread's
       number in its block, threadIdx.x. If that index is inside the
       vectors (< n), store c[index] = a[index] + b[index]. */
}

int vecadd2( const int *a, const int *b, int *c, int n )
{
    /* TODO 2: ask the GPU for its maximum number of threads per block:

           int dev, max_threads;
           cudaSafeCall( cudaGetDevice(&dev) );
           cudaSafeCall( cudaDeviceGetAttribute(&max_threads,
                                   cudaDevAttrMaxThreadsPerBlock, dev) );

       If n is larger, n threads do not fit one block: print a message
       saying so to stderr (fprintf(stderr, ...)), and return -1 at once,
       before allocating or launching anything. */

    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    /* Room on the device, and the inputs copied there */
    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    /* TODO 3: launch add with ONE block of n threads. One block of one
       thread, as below, adds at most one element. */
    add<<<1, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    /* The result back to the host, and the device memory freed */
    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
    return 0;
}
