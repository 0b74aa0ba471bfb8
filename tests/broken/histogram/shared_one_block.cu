// expect: too_slow
// profile: sm_busy_pct
// why: the grid-stride kernel with a grid of one block: right at every size, and one multiprocessor of the GPU's 132 counts all 2^24 elements of the timed calls.
// task: shared
/*
 * histogram.cu with one mistake: histogram_shared launches one block.
 * The other functions are the reference solution.
 */
#include "hpc.h"
#include "histogram.h"

#define BLKDIM 256

/*
 * The blocks the GPU runs at once with `kernel`: the grid of (b),
 * whose threads loop over the array with a stride of the whole grid, so
 * that each block adds its private counts into d_hist once.
 */
static int resident_blocks( const void *kernel )
{
    int device, n_sm, per_sm;

    cudaSafeCall( cudaGetDevice(&device) );
    cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
    cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLKDIM, 0) );
    return n_sm * (per_sm > 0 ? per_sm : 1);
}

/* The grid of (b): one thread per element, at most the resident blocks. */
static int grid_for( int n, const void *kernel )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    const int most = resident_blocks(kernel);
    return n_blocks < most ? n_blocks : most;
}

/****************************************************************************
 * (a) global: one atomicAdd() on device memory per element
 ****************************************************************************/

/*
 * Why it is slow: every element is one atomic read-modify-write on d_hist,
 * done in the L2 cache. Atomics on different bins proceed in parallel, but
 * those on the same bin queue up one behind the other: with 256 bins and
 * uniform values a warp's 32 updates spread over many bins, so the cost is
 * the L2's atomic throughput (n atomics against n loads); when 90% of the
 * elements hold one value, nearly every update waits for the one before it
 * on the same address, and the kernel runs several times slower.
 */
__global__ void histogram_global_kernel( const int *a, int n, int *hist )
{
    /* 1: each thread adds its element to its bin, atomically: two threads
       with the same value would lose a count with a plain ++ */
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        atomicAdd(&hist[a[i]], 1);
    }
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* 2: d_hist holds garbage: every bin starts from zero. The memset and
       the kernel go to the same (default) stream: the kernel waits for it. */
    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );

    histogram_global_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_hist);
    cudaCheckError();
}

/****************************************************************************
 * (b) shared: a private histogram per block in shared memory
 ****************************************************************************/

/*
 * Why it is faster: the n updates go to the block's own copy of the bins
 * in shared memory, whose atomics are done in the multiprocessor itself,
 * close and quick, and contend only with the block's own threads; device
 * memory sees one atomicAdd() per bin per block, a few hundred blocks times
 * 256 bins instead of n. The grid just fills the GPU, so each block counts
 * many elements (coarsening) before it pays for its merge.
 *
 * Why it is not faster still: one int per load, and one private copy that
 * all the block's warps count into. On sm_90 a skew costs it little: the
 * compiler turns atomicAdd(&local[v], 1) into ATOMS.POPC.INC, with which
 * the hardware counts a warp's lanes that hit the same bin as one update.
 * The tuned reference, bench/histogram/tuned.cu, reads int4 vectors and
 * gives each warp its own copy.
 */
__global__ void histogram_shared_kernel( const int *a, int n, int *hist, int bins )
{
    /* 3: the block's private histogram, zeroed by all its threads together,
       and a barrier before anyone counts into it */
    __shared__ int local[MAX_BINS];
    int b, i;

    for (b = threadIdx.x; b < bins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();

    /* 4: count, with a stride of the whole grid, into the private bins */
    for (i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[a[i]], 1);
    }

    /* 5: once every thread of the block has counted, add the block's counts
       into d_hist: one atomicAdd() per bin that the block saw */
    __syncthreads();
    for (b = threadIdx.x; b < bins; b += blockDim.x) {
        if ( local[b] > 0 ) {
            atomicAdd(&hist[b], local[b]);
        }
    }
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    /* The blocks the GPU runs at once (fewer for a small n), not one per
       BLKDIM elements: each block counts many elements with the
       grid-stride loop of step 4, and merges its counts once. */
    const int n_blocks = 1;

    /* 6: the bins from zero before the launch, as in step 2 */
    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );

    histogram_shared_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_hist, bins);
    cudaCheckError();
}
