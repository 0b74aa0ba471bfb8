// expect: wrong_launch
// why: the coefficients copied into a cudaMalloc'ed array and read by the kernel through a pointer, from global memory: every value is right, but the kernel's machine code never reads the constant bank of __constant__ variables (the poly task's lesson fact constant_bank_reads); it is also the speed baseline's kernel, about 1.8x slower.
/*
 * symbols.cu with one mistake: the coefficients are read from global memory.
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
/* MISTAKE: the coefficients in global memory, through a pointer */
__global__ void poly_kernel( const float *c_coeff, const float *x, float *y, int n )
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
    float *d_coeff;

    cudaSafeCall( cudaMalloc((void **)&d_coeff, NCOEFF * sizeof(float)) );
    cudaSafeCall( cudaMemcpy(d_coeff, coeff, NCOEFF * sizeof(float), cudaMemcpyHostToDevice) );
    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_coeff, d_x, d_y, n);
    cudaCheckError();
    cudaSafeCall( cudaFree(d_coeff) );
}
