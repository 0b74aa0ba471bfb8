// expect: too_slow
// profile: kernel_share_pct
// task: poly
// why: the coefficients copied one at a time, cudaMemcpyToSymbol with each one's offset in bytes: every value is right and the kernel reads __constant__ memory, but each call makes 64 copies from the host, each costing microseconds of its own, several times the kernel's time at 2^24 points: slower than the global-memory baseline's single copy and kernel.
/*
 * symbols.cu with one mistake: one cudaMemcpyToSymbol per coefficient.
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
    int k;

    /* MISTAKE: one copy per coefficient (each at its offset, in bytes):
       right, but NCOEFF calls to the runtime, each a trip to the GPU */
    for (k = 0; k < NCOEFF; k++) {
        cudaSafeCall( cudaMemcpyToSymbol(c_coeff, &coeff[k], sizeof(float), k * sizeof(float)) );
    }
    poly_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
}
