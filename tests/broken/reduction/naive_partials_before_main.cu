// expect: not_released
// why: sum_naive's array of partial sums is made once, at the largest n's number of blocks, by a static variable's initializer before main, and never freed: every sum is right and the call makes nothing, but the program holds 4 MiB of device memory through every call, made outside any call, which only the trace from before main can tell.
/*
 * reduction.cu with one mistake: sum_naive's partial sums live in an array
 * made before main, by a static variable's initializer.
 */
#include <stdlib.h>
#include "hpc.h"
#include "reduction.h"

/* A power of two: the tree reduction halves it at every step. */
#define BLKDIM 1024

/* (a) naive: thread 0 of each block adds up the block's elements */
__global__ void sum_naive_kernel( const int *a, int n, int *d_partial )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int gindex = threadIdx.x + blockIdx.x * blockDim.x;

    temp[lindex] = (gindex < n ? a[gindex] : 0);
    __syncthreads();
    if ( 0 == lindex ) {
        int i, my_sum = 0;
        for (i = 0; i < BLKDIM; i++) {
            my_sum += temp[i];
        }
        d_partial[bindex] = my_sum;
    }
}

static int add_partial_sums( const int *d_partial, int n_blocks )
{
    const size_t size = n_blocks * sizeof(int);
    int *h_partial = (int *)malloc(size);
    int i, sum = 0;

    cudaSafeCall( cudaMemcpy(h_partial, d_partial, size, cudaMemcpyDeviceToHost) );
    for (i = 0; i < n_blocks; i++) {
        sum += h_partial[i];
    }
    free(h_partial);
    return sum;
}

/* MISTAKE: one array of partial sums for every call, as many as the largest
   n has blocks (2^30 / BLKDIM), made before main by this initializer and
   never freed; sum_naive makes and releases nothing of its own. */
#define MAX_BLOCKS ((1 << 30) / BLKDIM)
static int *make_partials( void )
{
    int *p;
    cudaSafeCall( cudaMalloc((void **)&p, MAX_BLOCKS * sizeof(int)) );
    return p;
}
static int *d_partial = make_partials();

int sum_naive( const int *d_a, int n )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    sum_naive_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_partial);
    cudaCheckError();
    return add_partial_sums(d_partial, n_blocks);
}

/* (b) tree: all the threads of a block cooperate on the block's sum */
__global__ void sum_tree_kernel( const int *a, int n, int *d_partial )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
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
        d_partial[bindex] = temp[0];
    }
}

int sum_tree( const int *d_a, int n )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    int *d_partial, sum;

    cudaSafeCall( cudaMalloc((void **)&d_partial, n_blocks * sizeof(int)) );
    sum_tree_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_partial);
    cudaCheckError();
    sum = add_partial_sums(d_partial, n_blocks);
    cudaSafeCall( cudaFree(d_partial) );
    return sum;
}

/* (c) atomic: the blocks add their sums into one int on the device */
__global__ void sum_atomic_kernel( const int *a, int n, int *result )
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

void sum_atomic( const int *d_a, int n, int *d_sum )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    cudaSafeCall( cudaMemset(d_sum, 0, sizeof(*d_sum)) );
    sum_atomic_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sum);
    cudaCheckError();
}
