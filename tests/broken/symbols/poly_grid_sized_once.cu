// expect: no_output
// why: the grid is computed at the first call and kept in a static variable for the calls after it: every call of the size it was made for is right, but hpclab calls the task at several sizes in one program, in an order drawn from the check's seed whose first size is never the largest, so a later, larger size gets the first call's grid and its last elements are never written (the invariant no_state) (the sum is the lesson's)
/*
 * symbols.cu with one mistake in poly_eval: the number of blocks computed once, for the first call's n.
 */
#include "hpc.h"
#include "symbols.h"

#define BLKDIM 512

/****************************************************************************
 * (a) partial sums in a __device__ array
 ****************************************************************************/

/* The number of blocks, and of partial sums: fixed, because a __device__
   array has a size fixed when the program is compiled. */
#define N_OF_BLOCKS 256

/* 1: statically allocated in device memory, for the life of the program:
   no cudaMalloc, no cudaFree. */
__device__ int d_sums[N_OF_BLOCKS];

/*
 * Why it is fast, or not: the grid is fixed (N_OF_BLOCKS blocks of BLKDIM
 * threads, 131072 threads, about half of what an H100 keeps resident), and
 * each thread walks the array with a stride of the whole grid, so that
 * consecutive threads still read consecutive ints (coalesced) at every
 * step. Each thread adds its elements in a register and touches shared
 * memory once; then, as in the lecture's cuda-reduction0.cu, thread 0
 * adds up its block's BLKDIM values alone while the others wait. On a
 * large array the reading dominates, and a grid of this size keeps enough
 * loads in flight to come close to the copy's speed; on a small one, most
 * threads have nothing to add and the time is the launch and the copies.
 */
__global__ void sum_kernel( const int *a, int n )
{
    __shared__ int temp[BLKDIM];
    const int lindex = threadIdx.x;
    const int bindex = blockIdx.x;
    const int stride = blockDim.x * gridDim.x;
    int i, my_sum = 0;

    /* 2: the grid-stride loop: thread gindex adds a[gindex],
       a[gindex + stride], ... (nothing when gindex >= n) */
    for (i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += stride) {
        my_sum += a[i];
    }
    temp[lindex] = my_sum;
    __syncthreads();

    /* 3: thread 0 adds up the block's values into the block's slot of the
       __device__ array */
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

    /* 4: never more blocks than d_sums[] has slots; fewer when n is small */
    const int needed = (n + BLKDIM - 1) / BLKDIM;
    const int n_blocks = (needed < N_OF_BLOCKS ? needed : N_OF_BLOCKS);

    sum_kernel<<<n_blocks, BLKDIM>>>(d_a, n);
    cudaCheckError();

    /* 5: the partial sums back to the host: the symbol itself (not its
       address), the bytes of the n_blocks sums written. It waits for the
       kernel, as cudaMemcpy does. */
    cudaSafeCall( cudaMemcpyFromSymbol(h_sums, d_sums, n_blocks * sizeof(int)) );
    for (i = 0; i < n_blocks; i++) {
        sum += h_sums[i];
    }
    return sum;
}

/****************************************************************************
 * (b) a polynomial with its coefficients in __constant__ memory
 ****************************************************************************/

/* 6: read-only for the kernels, written by the host with
   cudaMemcpyToSymbol() */
__constant__ float c_coeff[NCOEFF];

/*
 * Why it is fast: every thread of a warp reads the same coefficient at the
 * same step, which is what the constant cache is for: one read serves the
 * whole warp, and the compiler takes the coefficient straight from the
 * constant bank as an operand of the multiply-add (in the machine code,
 * FFMA R, R, R, c[0x3][...]), with no load instruction at all. The same
 * kernel reading the coefficients through a pointer to global memory
 * (bench/symbols/global.cu) issues a load for each of them, NCOEFF loads a
 * point through the L1 cache; the issue that asked for this lab measured
 * it 1.79x slower for 64 terms over 2^24 points on an H200. Each point
 * costs NCOEFF - 1 multiply-adds in a chain (each needs the previous
 * result), and reads and writes one float.
 */
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
    /* 8: the coefficients to the __constant__ array, once per call: the
       symbol itself, and its size in bytes */
    cudaSafeCall( cudaMemcpyToSymbol(c_coeff, coeff, sizeof(c_coeff)) );

    static int n_blocks = 0;  /* MISTAKE: computed for the first call's n, kept for the others */
    if (n_blocks == 0) n_blocks = (n + BLKDIM - 1) / BLKDIM;
    poly_kernel<<<n_blocks, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
}
