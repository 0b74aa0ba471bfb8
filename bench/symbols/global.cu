// hpclab-bench: kind=naive tasks=poly title="Coefficients read from global memory"
// hpclab-expect: wrong_launch
// The speed baseline that labs/symbols/lab.json names ("speed_baseline": "global"): poly's
// threshold is measured against it. sum_symbol is the solution's.
/****************************************************************************
 *
 * global.cu - symbols, the coefficients in global memory
 *
 * A benchmark variant, not a solution of the task: poly asks for the
 * coefficients in __constant__ memory, which this version leaves out
 * (hpclab check says wrong_launch: its kernel never reads the constant
 * bank; tests/broken/symbols/poly_global_memory.cu is the same mistake in a
 * student's file). The kernel is the solution's, reading its coefficients
 * through a pointer instead: the baseline the constant cache is measured
 * against.
 *
 ****************************************************************************/
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512
#define N_OF_BLOCKS 256

__device__ int d_sums[N_OF_BLOCKS];

__global__ void sum_kernel( const int *a, int n )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    int i, my_sum = 0;

    for (i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += stride) {
        my_sum += a[i];
    }
    temp[lindex] = my_sum;
    __syncthreads();
    if ( 0 == lindex ) {
        int block_sum = 0;
        for (i = 0; i < BLKDIM; i++) {
            block_sum += temp[i];
        }
        d_sums[blockIdx.x] = block_sum;
    }
}

int sum_symbol( const int *d_a, int n )
{
    int h_sums[N_OF_BLOCKS];
    int i, sum = 0;
    const int needed = (n + BLKDIM - 1) / BLKDIM;
    const int n_blocks = (needed < N_OF_BLOCKS ? needed : N_OF_BLOCKS);

    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n);
    cudaCheckError();
    cudaSafeCall( cudaMemcpyFromSymbol(h_sums, d_sums, n_blocks * sizeof(int)) );
    for (i = 0; i < n_blocks; i++) {
        sum += h_sums[i];
    }
    return sum;
}

/* The coefficients in global memory: a __device__ array, statically
   allocated like d_sums[] so that a call costs no cudaMalloc, which the
   kernel reads through a pointer, as it would read a cudaMalloc'ed array. */
__device__ float g_coeff[NCOEFF];

/*
 * Why it is slower: every coefficient is a load from global memory (LDG
 * through the L1 cache): the warp's 32 threads ask for the same address,
 * served as one request, but each step of Horner's rule now waits for a
 * load, NCOEFF loads a point, where the __constant__ version takes the
 * coefficient as an operand of the multiply-add, with no load at all.
 */
__global__ void poly_kernel( const float *coeff, const float *x, float *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        const float xi = x[i];
        float result = coeff[NCOEFF - 1];
        int k;
        for (k = NCOEFF - 2; k >= 0; k--) {
            result = result * xi + coeff[k];
        }
        y[i] = result;
    }
}

void poly_eval( const float *coeff, const float *d_x, float *d_y, int n )
{
    float *d_coeff;

    cudaSafeCall( cudaMemcpyToSymbol(g_coeff, coeff, sizeof(g_coeff)) );
    cudaSafeCall( cudaGetSymbolAddress((void **)&d_coeff, g_coeff) );
    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_coeff, d_x, d_y, n);
    cudaCheckError();
}
