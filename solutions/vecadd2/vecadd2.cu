/****************************************************************************
 *
 * vecadd2.cu - Vector addition with one block of n threads (solution)
 *
 * Based on the course's cuda-vecadd2.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * Run it:  hpclab run vecadd2 --solution
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "vecadd2.h"

/*
 * One thread per element, all in one block. Within the block the accesses
 * are as good as they get: the 32 threads of a warp read 32 consecutive
 * ints of a and b and write 32 consecutive ints of c, so each warp access
 * is one coalesced 128-byte transaction. What limits it is the single
 * block: a block runs on ONE multiprocessor, so all the others stay idle
 * (131 of the 132 of an H100 SXM), and n can never pass the limit of
 * threads per block (1024).
 * At these sizes the call's time is anyway the allocations, the copies
 * and the launch, not the kernel. The bound check is not needed with
 * exactly n threads, but costs nothing and keeps a larger block harmless.
 */
__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

int vecadd2( const int *a, const int *b, int *c, int n )
{
    int dev, max_threads;
    cudaSafeCall( cudaGetDevice(&dev) );
    cudaSafeCall( cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev) );
    if (n > max_threads) {
        fprintf(stderr,
                "vecadd2: n = %d threads do not fit one block: this GPU allows at most %d threads per block\n",
                n, max_threads);
        return -1;
    }

    int *d_a, *d_b, *d_c; /* device copies of a, b, c */
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_a, size) );
    cudaSafeCall( cudaMalloc((void **)&d_b, size) );
    cudaSafeCall( cudaMalloc((void **)&d_c, size) );
    cudaSafeCall( cudaMemcpy(d_a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d_b, b, size, cudaMemcpyHostToDevice) );

    add<<<1, n>>>(d_a, d_b, d_c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d_c, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_a) );
    cudaSafeCall( cudaFree(d_b) );
    cudaSafeCall( cudaFree(d_c) );
    return 0;
}
