// expect: wrong_launch
// why: the partial sums in an array sum_symbol cudaMallocs (and frees), copied back with cudaMemcpy: every sum is right, but the lesson keeps them in a __device__ array, and the trace counts a cudaMalloc in the call (the partial task's lesson fact no_device_malloc).
/*
 * symbols.cu with one mistake: sum_symbol cudaMallocs its partial sums instead of a __device__ array.
 */
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512

/* (a) partial sums in a __device__ array */
#define N_OF_BLOCKS 256

__global__ void sum_kernel( const int *a, int n, int *d_sums )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
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
        d_sums[bindex] = block_sum;
    }
}

int sum_symbol( const int *d_a, int n )
{
    int h_sums[N_OF_BLOCKS];
    int *d_sums;
    int i, sum = 0;
    const int needed = (n + BLKDIM - 1) / BLKDIM;
    const int n_blocks = (needed < N_OF_BLOCKS ? needed : N_OF_BLOCKS);

    /* MISTAKE: the partial sums in memory of the call's own */
    cudaSafeCall( cudaMalloc((void **)&d_sums, n_blocks * sizeof(int)) );
    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_sums);
    cudaCheckError();
    cudaSafeCall( cudaMemcpy(h_sums, d_sums, n_blocks * sizeof(int), cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_sums) );
    for (i = 0; i < n_blocks; i++) {
        sum += h_sums[i];
    }
    return sum;
}

/* (b) a polynomial with its coefficients in __constant__ memory */
__constant__ float c_coeff[NCOEFF];

__global__ void poly_kernel( const float *x, float *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        const float xi = x[i];
        float result = c_coeff[NCOEFF - 1];
        int k;
        for (k = NCOEFF - 2; k >= 0; k--) {
            result = result * xi + c_coeff[k];
        }
        y[i] = result;
    }
}

void poly_eval( const float *coeff, const float *d_x, float *d_y, int n )
{
    cudaSafeCall( cudaMemcpyToSymbol(c_coeff, coeff, sizeof(c_coeff)) );
    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
}
