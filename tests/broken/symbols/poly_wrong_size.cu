// expect: wrong_answer
// why: cudaMemcpyToSymbol(c_coeff, coeff, NCOEFF): NCOEFF bytes, not NCOEFF floats, so only the first 16 coefficients are copied and the others stay 0: the values differ wherever x^16 is not negligible (every size but, by chance, the smallest).
/*
 * symbols.cu with one mistake: the size of the copy is NCOEFF bytes.
 */
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512

/* (a) partial sums in a __device__ array */
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
        d_sums[bindex] = block_sum;
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
    /* MISTAKE: NCOEFF bytes, a quarter of the coefficients */
    cudaSafeCall( cudaMemcpyToSymbol(c_coeff, coeff, NCOEFF) );
    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
}
