/****************************************************************************
 *
 * vecadd3.cu - Vector addition with blocks and threads
 *
 * Based on the course's cuda-vecadd3.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * vecadd1 used n blocks of one thread, vecadd2 one block of n threads.
 * Here each block has BLKDIM threads and there are as many blocks as
 * needed to cover the n elements, so any n works and every multiprocessor
 * of the GPU gets work. Thread `threadIdx.x` of block `blockIdx.x` handles
 * element
 *
 *     index = threadIdx.x + blockIdx.x * blockDim.x
 *
 * When n is not a multiple of BLKDIM the last block has threads past the
 * end of the vectors: they must do nothing.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run vecadd3
 *     hpclab run vecadd3 --n 1000       (any other size)
 *
 ****************************************************************************/
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* TODO 1: compute the index of the element this thread handles,
       from threadIdx.x, blockIdx.x and blockDim.x. */

    /* TODO 2: if the index is inside the vectors (index < n), store
       c[index] = a[index] + b[index]. */
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* TODO 3: launch enough blocks of BLKDIM threads to cover all n
       elements: (n + BLKDIM - 1) / BLKDIM blocks. One block of one
       thread, as below, covers nothing. */
    add<<<1, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
