/****************************************************************************
 *
 * symbols.cu - __device__ and __constant__ variables
 *
 * Based on the course's cuda-reduction0.cu and on the __device__ example of
 * the lecture (Moreno Marzolla, "CUDA Programming").
 *
 * A variable declared at file scope with __device__ lives in device memory
 * for the whole life of the program, allocated when the program is loaded:
 * no cudaMalloc, no cudaFree. One declared with __constant__ lives in
 * constant memory: the kernels can only read it, and a read that all the
 * threads of a warp make at the same address is served by the constant
 * cache at once. The host reaches both with cudaMemcpyToSymbol() and
 * cudaMemcpyFromSymbol(), naming the variable itself (the "symbol").
 *
 *  (a) sum_symbol: the sum of n ints, each block's partial sum kept in a
 *      __device__ array, read back with cudaMemcpyFromSymbol(), and added
 *      up by the host, as in the lecture's cuda-reduction0.cu. The array
 *      has a fixed size, N_OF_BLOCKS: the grid never has more blocks than
 *      that, so each thread adds up several elements (a grid-stride loop).
 *  (b) poly_eval: a polynomial of NCOEFF coefficients evaluated at n points,
 *      the coefficients copied once into a __constant__ array with
 *      cudaMemcpyToSymbol() and read by every thread.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run symbols
 *     hpclab run symbols --n 1000       (any other size)
 *
 ****************************************************************************/
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512

/****************************************************************************
 * (a) partial sums in a __device__ array
 ****************************************************************************/

/* The number of blocks, and of partial sums: fixed, because a __device__
   array has a size fixed when the program is compiled. */
#define N_OF_BLOCKS 256

/* TODO 1: declare d_sums[], an array of N_OF_BLOCKS ints in device memory
   (__device__). Do not cudaMalloc it: it exists as soon as the program
   is loaded. */

__global__ void sum_kernel( const int *a, int n )
{
    /* TODO 2: the grid may be smaller than n. Each thread adds up, into a
       register my_sum (starting at 0), the elements a[gindex],
       a[gindex + stride], a[gindex + 2*stride], ... while the index is
       less than n, with gindex = threadIdx.x + blockIdx.x * blockDim.x
       and stride = blockDim.x * gridDim.x, the threads of the whole grid
       (a grid-stride loop). Then it stores my_sum into temp[threadIdx.x],
       temp[] being an array of BLKDIM ints in shared memory, and waits
       for the whole block (__syncthreads()). */

    /* TODO 3: thread 0 adds up temp[0 .. BLKDIM-1] and stores the block's
       sum into d_sums[blockIdx.x]. */
}

int sum_symbol( const int *d_a, int n )
{
    int sum = 0;

    /* TODO 4: n_blocks, the number of blocks: (n + BLKDIM - 1) / BLKDIM,
       but never more than N_OF_BLOCKS (d_sums[] has no more slots). */
    const int n_blocks = 1;

    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n);
    cudaCheckError();

    /* TODO 5: copy the n_blocks partial sums from d_sums into h_sums, an
       array of N_OF_BLOCKS ints on the host, with
       cudaMemcpyFromSymbol(destination, symbol, bytes): pass the symbol
       d_sums itself, not its address, and n_blocks * sizeof(int) bytes.
       Then add them up into sum. */

    return sum;
}

/****************************************************************************
 * (b) a polynomial with its coefficients in __constant__ memory
 ****************************************************************************/

/* TODO 6: declare c_coeff[], an array of NCOEFF floats in constant memory
   (__constant__). */

__global__ void poly_kernel( const float *x, float *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        /* TODO 7: Horner's rule: start from result = c_coeff[NCOEFF - 1];
           for k from NCOEFF - 2 down to 0, result = result * x[i] +
           c_coeff[k]. Store the result into y[i]. */
    }
}

void poly_eval( const float *coeff, const float *d_x, float *d_y, int n )
{
    /* TODO 8: copy the NCOEFF coefficients from coeff (host memory) into
       c_coeff with cudaMemcpyToSymbol(symbol, source, bytes): the symbol
       itself, and sizeof(c_coeff) bytes. Do it at every call: each call
       has coefficients of its own. */

    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
}
