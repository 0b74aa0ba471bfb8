// hpclab-bench: kind=naive tasks=sum,max title="The course's reduction: a tree per block of 1024, one atomic per block"
// The speed baseline that labs/warpreduce/lab.json names ("speed_baseline": "course"): the thresholds
// are measured against it. Its sum is the course's atomic reduction as solutions/reduction/reduction.cu
// writes it; its max is the same tree with max() and atomicMax().
/****************************************************************************
 *
 * course.cu - warpreduce, the course's way: a tree in shared memory per
 *             block of BLKDIM elements, then one atomic per block
 *
 * Based on the course's cuda-reduction3.cu (Moreno Marzolla, "CUDA
 * Programming").
 *
 * Not the lesson of this lab: hpclab check says wrong_launch (a grid of one
 * block per 1024 elements, past the grid check at n = 2^24 + 3). It is here
 * as what the one-pass kernel is measured against.
 *
 * Time it:  hpclab bench warpreduce --variants solution,course
 *
 ****************************************************************************/
#include <limits.h>
#include "hpc.h"
#include "warpreduce.h"

/* A power of two: the tree reduction halves it at every step. */
#define BLKDIM 1024

/*
 * Why it is slower than the one-pass kernel: one element per thread, so a
 * thread issues one load and waits for it, and the memory is idle while a
 * block runs its tree; the tree costs log2(BLKDIM) = 10 barriers per block;
 * and there are n / BLKDIM blocks, each with its atomicAdd(). All of it
 * correct, and already on the device: no partial sums to the host.
 */
__global__ void sum_kernel( const int *a, int n, int *result )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int bsize = blockDim.x / 2;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    while ( bsize > 0 ) {
        if ( lindex < bsize ) {
            temp[lindex] += temp[lindex + bsize];
        }
        bsize = bsize / 2;
        __syncthreads();
    }
    if ( 0 == lindex ) {
        atomicAdd(result, temp[0]);
    }
}

void reduce_sum( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}

/* The same tree with max(); threads past n offer INT_MIN. */
__global__ void max_kernel( const int *a, int n, int *result )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int bsize = blockDim.x / 2;

    temp[lindex] = (gindex < n ? a[gindex] : INT_MIN);
    __syncthreads();
    while ( bsize > 0 ) {
        if ( lindex < bsize ) {
            temp[lindex] = max(temp[lindex], temp[lindex + bsize]);
        }
        bsize = bsize / 2;
        __syncthreads();
    }
    if ( 0 == lindex ) {
        atomicMax(result, temp[0]);
    }
}

void reduce_max( const int *d_a, int n, int *d_max )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    const int lowest = INT_MIN;

    cudaSafeCall( cudaMemcpy(d_max, &lowest, sizeof(lowest), cudaMemcpyHostToDevice) );
    max_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_max);
    cudaCheckError();
}
