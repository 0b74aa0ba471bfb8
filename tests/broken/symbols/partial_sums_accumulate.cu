// expect: wrong_answer
// why: each block adds its sum into d_sums[] (+=) instead of storing it: a __device__ array starts at zero, so the program's first call is right, and every later call adds onto the sums the earlier calls left, a wrong total at the call after the first
/*
 * symbols.cu with one mistake: the partial sums added onto what the last call left.
 */
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512


#define N_OF_BLOCKS 256

__device__ int d_sums[N_OF_BLOCKS];

__global__ void sum_kernel( const int *a, int n )
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
        d_sums[bindex] += block_sum; /* MISTAKE: the last call's sums are still there */
    }
}

int sum_symbol( const int *d_a, int n )
{
    int h_sums[N_OF_BLOCKS];
    int i, sum = 0;

    /* 4: never more blocks than d_sums[] has slots; fewer when n is small */
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


__constant__ float c_coeff[NCOEFF];

__global__ void poly_kernel( const float *x, float *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        /* 7: Horner's rule: p(x) = c0 + x (c1 + x (c2 + ... x c63)) */
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
